// Scheduling: which ready task runs on which host, and when. Pure logic over
// host states and predictions (like ninja's Plan): no adapters, no I/O, so
// policies are tested with made-up hosts and times.
#ifndef GSRT_RUNTIME_SCHED_SCHEDULER_H_
#define GSRT_RUNTIME_SCHED_SCHEDULER_H_

#include <memory>
#include <span>
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

// Hosts an operation's tasks may run on, by HostId (runtime.hosts.OP in
// gsrt.yaml, from the hosts' labels); a host past its end may not.
using HostMask = std::vector<bool>;

// What one job of a task holds on its host while it runs (the operation's
// @Constraints): cores out of the host's slots, memory, and GPUs (devices
// of its own); and the hosts it may run on at all.
struct Need {
  int cores = 1;
  double memory_gb = 0;               // 0: nothing reserved
  const HostMask* only_on = nullptr;  // null: any host; else outlives it
  int gpus = 0;                       // devices held; 0: none
  // One core, nothing else, any host: the cheap paths of the board.
  bool simple() const {
    return cores == 1 && memory_gb == 0 && only_on == nullptr && gpus == 0;
  }
  // Holds more than one core and nothing else: what busy_needs records.
  bool holds_more() const { return cores != 1 || memory_gb != 0 || gpus != 0; }
  bool Allows(HostId h) const {
    return only_on == nullptr || (h < only_on->size() && (*only_on)[h]);
  }
  bool operator==(const Need&) const = default;
};

// "2 cores and 1.5 GB of memory", "1 core" (memory 0: not mentioned), "4
// cores and 2 GPUs" (GPUs 0: not mentioned).
std::string FormatCapacity(int cores, double memory_gb, int gpus = 0);

// What the scheduler knows of one host at a moment.
struct HostState {
  int slots = 1;  // cores: what jobs' Need::cores add up to at most
  bool usable = true;
  double memory_gb = 0;  // 0: not known, so not limited
  int gpus = 0;          // devices; 0: none (a job needing one never fits)
  // Predicted end time of each job running there (size = jobs running).
  std::vector<Seconds> busy_until;
  // What each of those jobs holds, in the same order; jobs past its end
  // (all of them when it is empty, the common case) hold one core and no
  // memory.
  std::vector<Need> busy_needs;
  int busy_cores() const {
    int cores = static_cast<int>(busy_until.size() - busy_needs.size());
    for (const Need& n : busy_needs) cores += n.cores;
    return cores;
  }
  double busy_memory() const {
    double gb = 0;
    for (const Need& n : busy_needs) gb += n.memory_gb;
    return gb;
  }
  int busy_gpus() const {
    int held = 0;
    for (const Need& n : busy_needs) held += n.gpus;
    return held;
  }
  int free_slots() const { return usable ? slots - busy_cores() : 0; }
  // Records a running job ending at `until` that holds `need`.
  void AddBusy(Seconds until, const Need& need) {
    if (need.holds_more() || !busy_needs.empty()) {
      busy_needs.resize(busy_until.size());  // earlier jobs: one core each
      busy_needs.push_back(need);
    }
    busy_until.push_back(until);
  }
  // Whether a job holding `need` could ever run here / could start now.
  bool Fits(const Need& need) const {
    return need.cores <= slots &&
           (memory_gb == 0 || need.memory_gb <= memory_gb) && need.gpus <= gpus;
  }
  // How many more jobs holding `need` could start now.
  int FreeFor(const Need& need) const;
};

// Predictions the policies use.
class Predictor {
 public:
  virtual ~Predictor() = default;
  // Execution time of `op` on `host`.
  virtual Seconds ExecTime(OpId op, HostId host) const = 0;
  // Time to bring the inputs of `task` that are not on `host` there
  // (never negative).
  virtual Seconds TransferTime(TaskId task, HostId host) const = 0;
  // When the predictor knows its times are work / speed (a simulation's
  // host speeds): for every op with Work(op) >= 0, ExecTime(op, h) is
  // exactly Work(op) / speeds()[h]. Policies use it to bound execution
  // times and skip hosts at scale (FinishIndex); empty or negative: not
  // known, every host is looked at.
  virtual std::span<const double> speeds() const { return {}; }
  virtual Seconds Work(OpId op) const { return -1; }
  // A number that stays the same only while no answer above changes: two
  // rounds that read the same non-zero stamp got the same times for every
  // (task, host), so a policy may reuse what it computed (MCT replays its
  // previous round: FinishIndex). 0, the default: not known, reuse nothing.
  virtual uint64_t stamp() const { return 0; }
};

struct ReadyTask {
  TaskId id;
  OpId op;
  Need need;
};

struct Placement {
  TaskId task;
  HostId host;
  Seconds predicted_end;
  // The task's index in the `ready` span Place was given, when the policy
  // tells it (kNoIndex: not told): the Scheduler then removes it without
  // looking for it.
  static constexpr uint32_t kNoIndex = static_cast<uint32_t>(-1);
  uint32_t ready_index = kNoIndex;
};

struct SchedulingInput {
  Seconds now = 0;
  const std::vector<HostState>* hosts = nullptr;
  const Predictor* predictor = nullptr;
};

// Slot availability of every host during one scheduling round: for each
// host a min-heap of the times its slots (cores) free up (free slots at
// `now`), and the memory and GPUs its jobs hold until when. Policies
// reserve on it as they assign tasks. The capacity model every policy
// respects: a job of a task with Need{k, m, -, g} holds k slots of its
// host, m GB of its memory and g of its GPUs from its start to its
// predicted end; it starts when all are free (docs/design.md, "Capacity").
class SlotBoard {
 public:
  struct Slot {
    Seconds time;
    bool free;
    bool operator==(const Slot&) const = default;
  };

  explicit SlotBoard(const SchedulingInput& in);

  size_t num_hosts() const { return begin_.size() - 1; }
  bool usable(HostId h) const { return begin_[h] != begin_[h + 1]; }
  // When the next slot of `h` is free, and whether that is now (one-core
  // tasks without memory: the common case, kept cheap).
  Seconds earliest(HostId h) const { return slots_[begin_[h]].time; }
  bool free_now(HostId h) const { return slots_[begin_[h]].free; }
  int total_free() const { return free_; }
  Seconds now() const { return now_; }

  // The same for a task holding `need`: whether `h` can ever hold it, when
  // it could start there at the earliest, whether that is now.
  bool Fits(HostId h, const Need& need) const;
  Seconds EarliestFor(HostId h, const Need& need) const;
  bool FreeNowFor(HostId h, const Need& need) const;

  // Gives the earliest slot of `h` to a task ending at `end`.
  void Take(HostId h, Seconds end);
  // Gives the need.cores earliest slots of `h`, and need.memory_gb, to a
  // task ending at `end`.
  void Take(HostId h, const Need& need, Seconds end);

  // Every host's slots: host h's are all_slots()[begins()[h],
  // begins()[h + 1]) in heap order (none when it is not usable); and whether
  // memory is tracked (some host has a capacity). Two boards whose hosts
  // have the same slots and no memory answer every question alike.
  std::span<const Slot> all_slots() const { return slots_; }
  std::span<const uint32_t> begins() const { return begin_; }
  bool tracks_memory() const { return !memory_.empty(); }
  bool tracks_gpus() const { return !gpus_.empty(); }
  // Host h's memory capacity (0: not limited), and its GPUs.
  double memory_capacity(HostId h) const { return memory_of(h); }
  int gpu_capacity(HostId h) const { return gpus_.empty() ? 0 : gpus_[h]; }

 private:
  struct Hold {
    Seconds until;
    double amount;  // GB of memory, or GPUs
  };
  static bool Later(const Slot& a, const Slot& b);
  // Host h's memory capacity; 0 (unlimited) when no host has one.
  double memory_of(HostId h) const { return memory_.empty() ? 0 : memory_[h]; }
  // When `want` more of a host's `capacity` (memory, GPUs), held by
  // `holds` until their ends, is not held, from `from` on.
  static Seconds FreeAt(const std::vector<Hold>& holds, double capacity,
                        double want, Seconds from);
  Seconds now_;
  int free_ = 0;
  // One allocation for all hosts (a round runs after every job's end):
  // host h's heap is slots_[begin_[h], begin_[h + 1]).
  std::vector<Slot> slots_;
  std::vector<uint32_t> begin_;
  // Per host: free slots now; memory capacity (0: unlimited), what is held
  // now, and by whom until when. The memory vectors stay empty when no host
  // has a capacity.
  std::vector<int> host_free_;
  std::vector<double> memory_;
  std::vector<double> held_;
  std::vector<std::vector<Hold>> holds_;
  // The same for GPUs (counts), empty when no host has one.
  std::vector<int> gpus_;
  std::vector<int> gpus_held_;
  std::vector<std::vector<Hold>> gpu_holds_;
  mutable std::vector<Slot> scratch_;
};

// A scheduling policy. `Place` looks at ready tasks in order and returns
// the ones that should start now; the others stay ready for a later round.
class Policy {
 public:
  virtual ~Policy() = default;
  virtual std::string_view name() const = 0;

  // Immediate-mode policies choose one task's host at a time: the host the
  // task should go to given the board, with its predicted end; kNoHost when
  // no host fits. Only hosts with board.Fits(h, task.need) may be chosen,
  // and a task's start there is board.EarliestFor(h, task.need).
  struct Choice {
    HostId host = kNoHost;
    Seconds end = 0;
  };
  virtual Choice Choose(const ReadyTask& task, const SlotBoard& board,
                        const Predictor& predictor) = 0;

  // By default: each task in order goes to its Choose() host; it starts now
  // if that host has room for its Need, otherwise it waits for that host
  // (its slots are reserved so later tasks see the backlog, and a task
  // needing several cores is not overtaken forever by one-core tasks behind
  // it). A task with a Need for which Choose finds no host now (WorkQueue:
  // no room free anywhere) reserves the host where it could start first.
  // Batch policies (Min-Min) override this.
  virtual void Place(std::span<const ReadyTask> ready,
                     const SchedulingInput& in, std::vector<Placement>* out);
  // The host where `task` could start first (its Need fitting), with its
  // predicted end; kNoHost when it fits no usable host.
  static Choice ReserveEarliest(const ReadyTask& task, const SlotBoard& board,
                                const Predictor& predictor);

 protected:
  // Around the default Place's round: the board it made (a policy may keep
  // structures on it for the round's Choose calls), each host whose slots
  // it gave (board.Take), and the round's end (the board goes away).
  virtual void BeginRound(const SlotBoard& board, const Predictor& predictor) {}
  virtual void Took(HostId host) {}
  virtual void EndRound() {}

 public:
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

  void AddReady(TaskId task, OpId op) {
    ready_.push_back({task, op, op < needs_.size() ? needs_[op] : Need{}});
  }
  // What every task of `op` holds while it runs (default: one core).
  void SetNeed(OpId op, Need need) {
    if (needs_.size() <= op) needs_.resize(op + 1);
    needs_[op] = need;
  }
  Need NeedOf(OpId op) const {
    return op < needs_.size() ? needs_[op] : Need{};
  }
  size_t num_ready() const { return ready_.size() - head_; }
  std::span<const ReadyTask> ready() const {
    return {ready_.data() + head_, ready_.size() - head_};
  }

  // Places what can start now and removes it from the ready queue.
  std::vector<Placement> Schedule(const SchedulingInput& in);

  // Drops ready tasks for which `gone(task)` is true (futile, cancelled).
  template <typename Pred>
  void RemoveIf(Pred gone) {
    ready_.erase(ready_.begin(), ready_.begin() + head_);
    head_ = 0;
    std::erase_if(ready_, [&](const ReadyTask& r) { return gone(r.id); });
  }

  const Policy& policy() const { return *policy_; }
  Policy* mutable_policy() { return policy_.get(); }

 private:
  // The places in ready_ of the tasks in `placed`, ascending; false when
  // a policy did not tell one (or told a wrong one).
  bool PlacesOf(const std::vector<Placement>& placed,
                std::vector<size_t>* places) const;
  // Removes one task at `at` (Min-Min's is anywhere in the queue): the
  // shorter side moves.
  void RemoveAt(size_t at);
  void DropConsumedFront();

  std::unique_ptr<Policy> policy_;
  // The queue is ready_[head_, end): placed tasks leave from the nearer
  // end, by moving head_ and the few kept before them or the tail after
  // them in one block, so a round costs about what it scanned, not the
  // queue's length (a 100,000-task queue was moved down after every job's
  // end).
  std::vector<ReadyTask> ready_;
  size_t head_ = 0;
  std::vector<Need> needs_;  // by OpId
};

}  // namespace gs

#endif  // GSRT_RUNTIME_SCHED_SCHEDULER_H_
