// The SHA-256 of a program the master installs on its hosts, hashed once
// per process: every ssh host connected, and every reconnect, compares the
// remote copy with it (install_check.h), and hashing the agent and a
// worker takes tens of ms on a loaded machine.
#ifndef GSRT_ADAPTERS_SSH_PROGRAM_DIGEST_H_
#define GSRT_ADAPTERS_SSH_PROGRAM_DIGEST_H_

#include <string>

#include "runtime/base/status.h"

namespace gs {

// The file's SHA-256 (hex), computed again whenever the file is not the
// one hashed before (another inode, size, modification or change time: a
// rebuilt program). Thread-safe.
StatusOr<std::string> ProgramSha256(const std::string& path);

}  // namespace gs

#endif  // GSRT_ADAPTERS_SSH_PROGRAM_DIGEST_H_
