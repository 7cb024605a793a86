// The stall watchdog's decision: tasks are ready and slots are free, yet
// nothing runs, moves or ends. A policy that refuses to place (or any bug
// that leaves ready tasks behind) would otherwise hang the master without a
// word. Pure: the engine feeds it one look per period and acts on the
// answer (stall_monitor.cc).
#ifndef GSRT_RUNTIME_ENGINE_STALL_WATCH_H_
#define GSRT_RUNTIME_ENGINE_STALL_WATCH_H_

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/base/clock.h"
#include "runtime/graph/task_graph.h"

namespace gs {

// What the engine sees at one look.
struct StallLook {
  Seconds now = 0;
  size_t ready = 0;    // tasks in the ready queue
  int free_slots = 0;  // on usable hosts
  size_t active = 0;   // jobs running or staging, transfers, pending retries
  uint64_t moved = 0;  // grows whenever a job starts or a task ends
};

class StallWatch {
 public:
  // `bound` seconds stuck make a stall; 0 turns the watch off.
  explicit StallWatch(Seconds bound = 0) : bound_(bound) {}

  // True when the run has been stuck, at every look since `stuck_since()`,
  // for longer than the bound.
  bool Look(const StallLook& look);
  Seconds stuck_since() const { return since_; }

 private:
  Seconds bound_;
  Seconds since_ = -1;  // -1: not stuck at the last look
  uint64_t moved_ = 0;
};

// One host as the stall message shows it.
struct StalledHost {
  std::string name;
  std::string health;  // "up", "suspect", "down"
  bool usable = true;
  int free_slots = 0;
  int gpus = 0;       // its devices (learned ones: as its agents tell)
  int free_gpus = 0;  // of them, held by no job
};

// The waiting tasks (at most a few by name), the policy and the hosts'
// states (their GPUs too when a waiting task asks for some: "GPUs" in its
// name), and what to do.
std::string DescribeStall(const std::string& policy, Seconds stuck_for,
                          const std::vector<std::string>& waiting,
                          const std::vector<StalledHost>& hosts);

}  // namespace gs

#endif  // GSRT_RUNTIME_ENGINE_STALL_WATCH_H_
