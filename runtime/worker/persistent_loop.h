// `NAME-worker serve PARENT_PID`: the persistent worker. It runs job after
// job read from its stdin, a socket shared with the local adapter (protocol
// in runtime/base/serve_protocol.h), with the contract of one process per
// job kept for each: the job's working directory, its stdout and stderr in
// files named `stdout` and `stderr` there, the worker's start-up
// environment plus the job's entries and nothing a previous job set, and
// the exit code `run` would have returned.
//
// `NAME-worker fork-server PARENT_PID` reads the same requests but runs
// each job in a child forked for it (runtime.workers: fork): the child sets
// up the job as above, runs it and exits with `run`'s code, so no job sees
// what an earlier one left in memory, and the server itself, which runs no
// user function, stays as it started. It forks only while single-threaded
// (it starts no thread; a library that starts one in a static initializer
// would leave the child without it).
//
// It dies with the adapter's process: PR_SET_PDEATHSIG plus a check that
// PARENT_PID is still its parent, and EOF on the socket ends the loop; a
// fork server's child dies with the fork server the same way.
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
