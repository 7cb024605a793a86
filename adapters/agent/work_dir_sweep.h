// What SWEEP clears from an agent's work dir (docs/agent-protocol.md):
// what earlier agents of the same master left when their host was killed
// or stopped under them, or when the run that used them was killed: job
// sandboxes, version files the master no longer counts on, and partial
// temporaries of files being received. The master's work dir owns the host
// work dir (`owner`, recorded in the file `owner` there by the first
// sweep); a work dir recorded for another master is left alone, since that
// master may be alive and counting on its files.
#ifndef GSRT_ADAPTERS_AGENT_WORK_DIR_SWEEP_H_
#define GSRT_ADAPTERS_AGENT_WORK_DIR_SWEEP_H_

#include <string>
#include <vector>

#include "runtime/base/status.h"

namespace gs {

struct SweepCounts {
  int data_entries = 0;  // removed from data/
  int sandboxes = 0;     // removed from jobs/
  // Entries that could not be removed ("path: why"); the sweep goes on.
  std::vector<std::string> failures;
};

// Removes every entry of `work_dir`/data whose name is not in `keep` and
// every entry of `work_dir`/jobs, the sandbox pools' idle ones
// included: the caller's own pool drops its list first (a pool that finds
// an idle sandbox gone makes a fresh one anyway). Nothing else in
// `work_dir` (bin/, logs/, failed/) is touched. FailedPrecondition, touching
// nothing, when `work_dir`/owner names another master; InvalidArgument for an
// empty `owner`.
StatusOr<SweepCounts> SweepWorkDir(const std::string& work_dir,
                                   const std::string& owner,
                                   const std::vector<std::string>& keep);

}  // namespace gs

#endif  // GSRT_ADAPTERS_AGENT_WORK_DIR_SWEEP_H_
