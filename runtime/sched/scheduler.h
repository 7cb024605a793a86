// Scheduling: which ready task runs on which host, and when. Pure logic over
// host states and predictions (like ninja's Plan): no adapters, no I/O, so
// policies are tested with made-up hosts and times.
#ifndef GSRT_RUNTIME_SCHED_SCHEDULER_H_
#define GSRT_RUNTIME_SCHED_SCHEDULER_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/base/clock.h"
#include "runtime/base/status.h"
#include "runtime/config/config.h"
#include "runtime/graph/task_graph.h"
#include "runtime/sched/host_ranking.h"

namespace gs {

using HostId = uint32_t;
inline constexpr HostId kNoHost = static_cast<HostId>(-1);

// What the scheduler knows of one host at a moment.
struct HostState {
  int slots = 1;
  bool usable = true;
  // Predicted end time of each job running there (size = jobs running).
  std::vector<Seconds> busy_until;
  int free_slots() const {
    return usable ? slots - static_cast<int>(busy_until.size()) : 0;
  }
};

// Predictions the policies use.
class Predictor {
 public:
  virtual ~Predictor() = default;
  // Execution time of `op` on `host`.
  virtual Seconds ExecTime(OpId op, HostId host) const = 0;
  // Time to bring the inputs of `task` that are not on `host` there.
  virtual Seconds TransferTime(TaskId task, HostId host) const = 0;
};

struct ReadyTask {
  TaskId id;
  OpId op;
};

struct Placement {
  TaskId task;
  HostId host;
  Seconds predicted_end;
};

struct SchedulingInput {
  Seconds now = 0;
  const std::vector<HostState>* hosts = nullptr;
  const Predictor* predictor = nullptr;
};

// Slot availability of every host during one scheduling round: for each
// host a min-heap of the times its slots free up (free slots at `now`).
// Policies reserve slots on it as they assign tasks.
class SlotBoard {
 public:
  explicit SlotBoard(const SchedulingInput& in);

  size_t num_hosts() const { return begin_.size() - 1; }
  bool usable(HostId h) const { return begin_[h] != begin_[h + 1]; }
  // When the next slot of `h` is free, and whether that is now.
  Seconds earliest(HostId h) const { return slots_[begin_[h]].time; }
  bool free_now(HostId h) const { return slots_[begin_[h]].free; }
  int total_free() const { return free_; }
  Seconds now() const { return now_; }

  // Gives the earliest slot of `h` to a task ending at `end`.
  void Take(HostId h, Seconds end);

 private:
  struct Slot {
    Seconds time;
    bool free;
  };
  static bool Later(const Slot& a, const Slot& b);
  Seconds now_;
  int free_ = 0;
  // One allocation for all hosts (a round runs after every job's end):
  // host h's heap is slots_[begin_[h], begin_[h + 1]).
  std::vector<Slot> slots_;
  std::vector<uint32_t> begin_;
};

// A scheduling policy. `Place` looks at ready tasks in order and returns
// the ones that should start now; the others stay ready for a later round.
class Policy {
 public:
  virtual ~Policy() = default;
  virtual std::string_view name() const = 0;

  // Immediate-mode policies choose one task's host at a time: the host the
  // task should go to given the board, with its predicted end; kNoHost when
  // no host fits.
  struct Choice {
    HostId host = kNoHost;
    Seconds end = 0;
  };
  virtual Choice Choose(const ReadyTask& task, const SlotBoard& board,
                        const Predictor& predictor) = 0;

  // By default: each task in order goes to its Choose() host; it starts now
  // if that host has a free slot, otherwise it waits for that host (the
  // slot is reserved so later tasks see the backlog). Batch policies
  // (Min-Min) override this.
  virtual void Place(const std::vector<ReadyTask>& ready,
                     const SchedulingInput& in, std::vector<Placement>* out);

  // Proactive policies (paper 002's C-H) look again at what runs every
  // reconsider_period() seconds (0, the default: never) and return the
  // tasks whose jobs the engine should stop so they are placed anew.
  virtual Seconds reconsider_period() const { return 0; }
  virtual std::vector<TaskId> Reconsider(const std::vector<Placement>& running,
                                         const SchedulingInput& in) {
    return {};
  }

  // What a policy asks of the engine besides placements; the engine reads
  // it once, when the policy is made.
  struct Needs {
    // Replicas of running tasks on idle slots (WQR, WQR-FT, WQDR-FT), unless
    // the configuration asks for a replication itself.
    ReplicationMode replication = ReplicationMode::kOff;
    // With dynamic replication: the hosts by success rate, best first,
    // through SetHostOrder before each round.
    bool host_order = false;
    // The hosts' reliability counts from the history, through
    // SetReliability once (grank).
    bool reliability = false;
  };
  virtual Needs needs() const { return {}; }
  // Hosts to try first; hosts not listed come after, by index.
  virtual void SetHostOrder(std::vector<HostId> order) {}
  // Accumulated reliability counts of each host, by host index (attempts,
  // not_answered, distrust; the other fields are unused).
  virtual void SetReliability(std::vector<HostFacts> hosts) {}
};

// Minimum completion time (paper 003): each task goes to the host where it
// would finish first, counting the host's predicted backlog, the execution
// time and the input transfer time. Ties go to the lowest host index.
std::unique_ptr<Policy> MakeMctPolicy();
// Minimum execution time (paper 003): the host with the fastest predicted
// execution (plus transfer), whatever its backlog.
std::unique_ptr<Policy> MakeMetPolicy();

// Builds a policy by its configuration name ("mct", "met").
StatusOr<std::unique_ptr<Policy>> MakePolicy(std::string_view name);

// Every name MakePolicy accepts, as one sentence for help texts and errors.
extern const char kPolicyNames[];

// The ready queue plus a policy.
class Scheduler {
 public:
  explicit Scheduler(std::unique_ptr<Policy> policy)
      : policy_(std::move(policy)) {}

  void AddReady(TaskId task, OpId op) { ready_.push_back({task, op}); }
  size_t num_ready() const { return ready_.size(); }
  const std::vector<ReadyTask>& ready() const { return ready_; }

  // Places what can start now and removes it from the ready queue.
  std::vector<Placement> Schedule(const SchedulingInput& in);

  // Drops ready tasks for which `gone(task)` is true (futile, cancelled).
  template <typename Pred>
  void RemoveIf(Pred gone) {
    std::erase_if(ready_, [&](const ReadyTask& r) { return gone(r.id); });
  }

  const Policy& policy() const { return *policy_; }
  Policy* mutable_policy() { return policy_.get(); }

 private:
  std::unique_ptr<Policy> policy_;
  std::vector<ReadyTask> ready_;
};

}  // namespace gs

#endif  // GSRT_RUNTIME_SCHED_SCHEDULER_H_
