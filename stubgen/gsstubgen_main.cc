// Placeholder until the stub generator lands.
int main() { return 1; }
