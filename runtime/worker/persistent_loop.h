// `NAME-worker serve PARENT_PID`: the persistent worker. It runs job after
// job read from its stdin, a socket shared with the local adapter (protocol
// in runtime/base/serve_protocol.h), keeping for each the contract of one
// process per job: the job's cwd, its stdout and stderr in files named
// `stdout` and `stderr` there, the start-up environment plus the job's
// entries, and the exit code `run` would have returned.
// `NAME-worker fork-server PARENT_PID` reads the same requests and runs
// each job in a child forked for it, which exits with `run`'s code; it
// forks only while single-threaded. Both die with the adapter's process
// (PR_SET_PDEATHSIG, a check that PARENT_PID is still the parent unless it
// is 0 for a worker behind a launcher, EOF on the socket), a fork server's
// child with its server (docs/design.md, "Decisions and their reasons").
#ifndef GSRT_RUNTIME_WORKER_PERSISTENT_LOOP_H_
#define GSRT_RUNTIME_WORKER_PERSISTENT_LOOP_H_

#include "gs/gs_abi.h"

namespace gs {

// argv[1] is "serve" or "fork-server". Returns the worker's exit code: 0 at
// EOF, kWorkerBadCall when the
// command line or a request is malformed (after saying why on stderr).
int ServeJobs(int argc, const char* const* argv, const char* interface_name,
              const gs_worker_entry* entries, int num_entries);

}  // namespace gs

#endif  // GSRT_RUNTIME_WORKER_PERSISTENT_LOOP_H_
