// Where a master keeps its pilot token: `<workdir>/pilots/token.HOST.PID`,
// named by the machine and process of the master that wrote it. A master
// killed by SIGKILL cannot remove its file; the next master in the same
// work dir removes the files of dead masters on its own machine (a master
// on another machine sharing the directory may still be alive: its files
// are left alone).
#ifndef GSRT_ADAPTERS_BATCH_PILOT_TOKEN_FILE_H_
#define GSRT_ADAPTERS_BATCH_PILOT_TOKEN_FILE_H_

#include <sys/types.h>

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "adapters/batch/node/pilot_auth.h"

namespace gs {

// "token.HOST.PID".
std::string PilotTokenFileName(std::string_view host, pid_t pid);

// The names among `names` (entries of the pilots directory) that are token
// files of this machine (`host`) whose master is no longer alive
// (`alive(pid)` false). Pure; names of other shapes are never chosen.
std::vector<std::string> StalePilotTokenFiles(
    const std::vector<std::string>& names, std::string_view host,
    const std::function<bool(pid_t)>& alive);

// Removes the stale token files from `dir`, judging life by kill(pid, 0): a
// pid that exists (ours or another user's) counts as alive.
void RemoveStalePilotTokenFiles(const std::string& dir, std::string_view host);

// Rewrites the stale token files in `dir` with `now` (this master's token
// and address) instead, so that pilots a dead master left come to this
// one (pilot_auth.h, PilotRendezvous); returns their paths, for this
// master to remove when it ends.
std::vector<std::string> TakeOverStalePilotTokenFiles(
    const std::string& dir, std::string_view host, const PilotRendezvous& now);

}  // namespace gs

#endif  // GSRT_ADAPTERS_BATCH_PILOT_TOKEN_FILE_H_
