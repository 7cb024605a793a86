// Stands in for a worker whose functions live in a shared library of the
// application (worker_identity_test).
int identity_probe_function(int x);

int main(int argc, char**) { return identity_probe_function(argc) == 0; }
