// DAG rewinding after a host is lost (Hernandez & Cole, paper 000, GTP/r and
// GTP/c/r): which tasks must run again so that every unfinished task can
// still get its inputs. A pure function over the graph and the data
// locations: no engine, no I/O. docs/rewinding.md explains the rules, the
// metrics and the paper's figure 2.
//
// The input types are small on purpose so the engine can build them from its
// TaskGraph and data layer: task and version ids are indices into the two
// vectors (a TaskGraph's TaskId and VersionId map one to one), hosts are the
// scheduler's HostId with the master being one more host.
#ifndef GSRT_RUNTIME_GRAPH_REWIND_H_
#define GSRT_RUNTIME_GRAPH_REWIND_H_

#include <cstdint>
#include <limits>
#include <vector>

#include "runtime/base/status.h"

namespace gs {

using HostId = uint32_t;  // as in runtime/sched/scheduler.h

enum class RewindMode : uint8_t {
  // GTP/r: a finished task placed on the lost host has lost its results,
  // whatever copies exist elsewhere; only an unfinished consumer that already
  // holds its input on its own host (the paper's kappa^d = 1) is satisfied.
  kGtpR,
  // GTP/c/r: a copy of a version on any surviving host (the master counts)
  // makes recomputing it unnecessary.
  kGtpCR,
};

struct RewindTask {
  enum class State : uint8_t {
    kPending,  // not placed yet (waiting or ready): needs its inputs
    kRunning,  // placed on `host`: a job is out (gathering inputs or running)
    kDone,     // finished on `host`
    kFailed,   // failed or futile: never runs again, needs nothing
  };
  // Value of `host` for a task that is not placed (same as gs::kNoHost).
  static constexpr HostId kUnplaced = std::numeric_limits<HostId>::max();

  State state = State::kPending;
  HostId host = kUnplaced;        // where it runs or ran; unused if pending
  std::vector<uint32_t> inputs;   // versions it reads
  std::vector<uint32_t> outputs;  // versions it writes
};

struct RewindVersion {
  // Producer of versions the master wrote (user files, GS_Open); they cannot
  // be recomputed (same value as gs::kMasterTask).
  static constexpr uint32_t kMaster = std::numeric_limits<uint32_t>::max();

  uint32_t producer = kMaster;  // a task index, or kMaster
  // Hosts holding a complete copy, the lost host included. A version whose
  // producer has not finished has none.
  std::vector<HostId> copies;
};

struct RewindPlan {
  // Tasks to run again, each once, in the order the paper considers them:
  // reverse topological (a task comes before every rewound task it depends
  // on), so re-executing them goes through this list backwards. Includes the
  // jobs running on the lost host, which are lost with it.
  std::vector<uint32_t> rewound;
  // Versions that had a copy on the lost host, ascending: that copy is gone
  // and must be dropped from the data locations (in both modes).
  std::vector<uint32_t> dropped;
  // Versions an unfinished or rewound task needs that have no copy left and
  // that no task can produce again (written by the master), ascending. Their
  // readers cannot run; the engine must fail them.
  std::vector<uint32_t> unrecoverable;
  // Tasks running on surviving hosts that had not yet received an input that
  // is now recomputed, ascending. Like v3 of figure 2 they keep their
  // placement (they are not rewound) but wait for the rewound producer.
  std::vector<uint32_t> stalled;

  // RT, the paper's Rewound Tasks: the number of placed tasks rewound, i.e.
  // rewound.size(). The paper's placed tasks include those still gathering
  // inputs or running on the failed host, so interrupted jobs count.
  uint32_t rt = 0;
  // Of those, how many had finished (their results are recomputed) and how
  // many were running on the lost host (their jobs are restarted).
  uint32_t rt_finished = 0;
  uint32_t rt_interrupted = 0;
  // LR, the paper's Levels Rewound ("how deep the application had to be
  // rewound"): max Level - min Level + 1 over the rewound tasks, 0 when none
  // is rewound. Level as in TaskLevels() below.
  uint32_t lr = 0;
};

// Level(v) as the paper defines it (section 3.2): "how deep in terms of
// number of edges a task is from the entry node". The paper assumes one entry
// node; a gsrt graph has a master instead, so tasks that read no task's output
// are at level 0 (what the paper's entry node is). Where several paths lead
// to a task the paper does not say which counts; we take the longest, the
// usual convention, so every edge goes from a lower to a higher level.
// Returns InvalidArgument on malformed input or a cycle.
StatusOr<std::vector<uint32_t>> TaskLevels(
    const std::vector<RewindTask>& tasks,
    const std::vector<RewindVersion>& versions);

// Decides what to rewind when `lost` fails. The input must be consistent:
// every version a task lists as output names it as producer and the graph is
// acyclic; otherwise InvalidArgument naming the offending task or version.
StatusOr<RewindPlan> PlanRewind(const std::vector<RewindTask>& tasks,
                                const std::vector<RewindVersion>& versions,
                                HostId lost, RewindMode mode);

}  // namespace gs

#endif  // GSRT_RUNTIME_GRAPH_REWIND_H_
