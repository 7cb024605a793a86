/* The baseline of the dispatch benchmarks: a program that exits at once,
 * dynamically linked against nothing but libc. Spawning it measures what
 * the machine charges for a process, which is the floor of any
 * one-process-per-job runtime. */
int main(void) { return 0; }
