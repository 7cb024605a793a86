// A library of "application functions" for worker_identity_test: the probe
// program loads it as a worker loads an application's shared library.
int identity_probe_function(int x) { return x + 1; }
