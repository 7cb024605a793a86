// The identity of the code a run's jobs execute: a hash of the worker
// binary's bytes (gsrt_add_application links the functions into it) and of
// the application's shared libraries it loads (a functions library of the
// user's own). A resumed run reuses only tasks computed by the same code, so
// a rebuilt worker or library with changed functions runs them again.
#ifndef GSRT_RUNTIME_MASTER_WORKER_IDENTITY_H_
#define GSRT_RUNTIME_MASTER_WORKER_IDENTITY_H_

#include <string>
#include <string_view>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/engine/code_identity.h"

namespace gs {

// The libraries in `ldd_listing` (what ldd prints for the worker) that come
// with the application: resolved paths outside the system's library
// directories (/lib, /lib64, /usr/lib, /usr/lib64), except gsrt's own
// libgsrt (a gsrt upgrade does not change what a function computes).
std::vector<std::string> ApplicationLibraries(std::string_view ldd_listing);

// "w:<16 hex digits>:<size>" from the bytes of the file at `worker_path`
// and, in ldd's order, of its application libraries. When ldd cannot list
// them (a static worker, no ldd), the binary alone.
StatusOr<std::string> WorkerIdentity(const std::string& worker_path);

// The whole worker's identity (WorkerIdentity) and each operation's: the
// identity of its function's code (function_identity.h) and of the
// application libraries, "f:<32 hex digits>". An operation whose code
// cannot be read (a worker linked without --emit-relocs, a function in a
// library) gets "" and the whole worker stands in. The worker's ELF file
// is read at the first operation asked for. What it learns is kept in
// `work_dir` (code_facts.h, when the directory exists): a later run with
// the same worker and libraries reads neither, nor runs ldd.
// Never fails: an unreadable worker gets an identity no other run has.
CodeIdentity ReadCodeIdentity(const std::string& worker_path,
                              const std::string& work_dir);

}  // namespace gs

#endif  // GSRT_RUNTIME_MASTER_WORKER_IDENTITY_H_
