// Which ready task runs where, and when a task is ready again. A round asks
// the policy (runtime/sched/scheduler.h) to place the ready tasks on the
// hosts' free slots, choosing among an operation's @Implements
// alternatives; then replicas of running tasks (paper 001) or prefetched
// jobs (runtime/sched/prefetch.h) take what is left. Each placement is
// booked through the round's Book before the next pass looks at the hosts.
// Between rounds it keeps the ready queue, the retries waiting out their
// backoff, the operations admitted and the predictor the policies read.
// Owned by the Engine; not locked by itself: every call is made with the
// engine's mutex held (the engine's member is GUARDED_BY it), except the
// retry timers' callbacks, which reach Site::RetryDue on the engine thread
// without it.
#ifndef GSRT_RUNTIME_ENGINE_DISPATCHER_H_
#define GSRT_RUNTIME_ENGINE_DISPATCHER_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "gs/gs_abi.h"
#include "runtime/base/clock.h"
#include "runtime/base/status.h"
#include "runtime/config/config.h"
#include "runtime/engine/data_places.h"
#include "runtime/engine/host_set.h"
#include "runtime/engine/job_table.h"
#include "runtime/graph/operation_table.h"
#include "runtime/graph/task_graph.h"
#include "runtime/sched/estimator_predictor.h"
#include "runtime/sched/exec_oracle.h"
#include "runtime/sched/host_labels.h"
#include "runtime/sched/scheduler.h"

namespace gs {

struct GtpInput;

// What a job of `op` holds: its @Constraints (at least one core).
Need NeedOfOperation(const gs_operation& op);

class Dispatcher {
 public:
  class Site {
   public:
    virtual ~Site() = default;
    // Engine thread, no lock held: the backoff of a retry of `task` ended
    // (RetryEnded says whether it is ready again).
    virtual void RetryDue(TaskId task) = 0;
    // Under the lock: `task` is ready; true when the engine holds it back
    // (a check for reuse, result_cache.h) and puts it back itself.
    virtual bool HoldReady(TaskId task) {
      (void)task;
      return false;
    }
  };

  // One placement of a round: `implementation` is the alternative it runs,
  // or null for the operation the program called.
  struct Booking {
    TaskId task;
    HostId host;
    Seconds predicted_end;
    bool replica;
    const gs_operation* implementation;
    // An MPI gang's other hosts (gang_choice.h), each holding the job's
    // need as `host` does; empty for any other job.
    std::vector<HostId> gang = {};
  };
  // Books a placement as a job (the engine's DispatchLocked).
  using BookFn = std::function<void(const Booking&)>;

  // The references must outlive this object. The policy is MCT until
  // SetPolicy.
  Dispatcher(const ReplicationConfig& replication, TaskGraph& graph,
             const OperationTable& ops, HostSet& hosts, const JobTable& jobs,
             const DataPlaces& data, std::unique_ptr<Site> site);
  Dispatcher(const Dispatcher&) = delete;
  Dispatcher& operator=(const Dispatcher&) = delete;

  // The run's policy; replication is the configuration's, else what the
  // policy asks for.
  void SetPolicy(std::unique_ptr<Policy> policy);
  // Start, with the clock and the hosts (in HostId order): the predictor,
  // which reads the data places for transfer times.
  void StartPredicting(Clock* clock, std::shared_ptr<const ExecOracle> oracle,
                       const std::vector<std::string>& host_names);

  // Operations kept to some hosts (runtime.hosts), by name; before the
  // first Admit.
  void KeepTo(std::map<std::string, KeptTo> masks) {
    kept_to_ = std::move(masks);
  }
  // The hosts that run a job over several nodes (HostSetup::spans_nodes),
  // by HostId; before the first Admit.
  void SpanNodesOn(HostMask hosts) { spans_nodes_ = std::move(hosts); }
  // Hosts that are nodes of an allocation (mode: allocation): by HostId,
  // its gang group ("": none, HostSetup::gang_group) and its node name. An
  // MPI operation over several nodes that no host in SpanNodesOn takes
  // runs on a gang of one group's members, all at once (gang_choice.h);
  // before the first Admit.
  struct GangNode {
    std::string group;
    std::string node;
  };
  void GangsOn(const std::vector<GangNode>& hosts);
  // The node host `h` is ("" when it is none); for a gang job's runner.
  const std::string& NodeOf(HostId h) const;
  // How many nodes a job of `op` takes as a gang PlaceGangs places; 0 when
  // it is none (for what a stall report says of a waiting task).
  int GangNodes(OpId op) const {
    auto it = gangs_.ops.find(op);
    return it == gangs_.ops.end() ? 0 : it->second.nodes;
  }
  // Whether any host can hold a job of `op` (checked once per operation);
  // else why not, naming the operation, its needs and every host.
  Status Admit(OpId op);

  // One round; `book` books each placement before the next pass.
  void Round(const BookFn& book);
  // A round is wanted: true when the caller must post one (none is posted
  // yet). RoundRuns when the posted round starts.
  bool RequestRound() { return !std::exchange(round_posted_, true); }
  void RoundRuns() { round_posted_ = false; }

  // `task` is ready: its inputs exist.
  void AddReady(TaskId task) {
    if (site_->HoldReady(task)) return;
    scheduler_.AddReady(task, graph_.task(task).op);
  }
  // Puts `task` back: ready if its inputs exist, else waiting for them.
  void Requeue(TaskId task);
  // Puts a failed task back after `delay` seconds (at once when 0).
  void RetryLater(TaskId task, Seconds delay);
  // A retry's timer fired: requeues the task unless the run is `stopping`
  // or a rewind requeued it meanwhile. True when it is ready again.
  bool RetryEnded(TaskId task, bool stopping);
  size_t pending_retries() const { return retry_timers_.size(); }
  void CancelRetries() { retry_timers_.clear(); }

  // A job of `task` failed because its inputs could not be staged.
  void CountStagingFailure(TaskId task) { ++staging_failures_[task]; }
  uint32_t staging_failures(TaskId task) const;

  // After any change the predictor's transfer times read (copies, sizes,
  // links): policies stop reusing the last round's times.
  void TransfersChanged() {
    if (predictor_) predictor_->TransfersChanged();
  }

  Scheduler& scheduler() { return scheduler_; }
  const Scheduler& scheduler() const { return scheduler_; }
  Policy& policy() { return *scheduler_.mutable_policy(); }
  EstimatorPredictor& predictor() { return *predictor_; }
  ReplicationMode replication() const { return replication_; }

 private:
  // The policy's placements on `states`, each booked.
  void PlaceReady(std::vector<HostState>& states,
                  std::vector<Placement>* placed, const BookFn& book);
  // Tells every adapter the ready tasks left without a slot when that
  // number starts, stops, doubles or halves (hosts that grow read it).
  void TellBacklog(size_t backlog);
  // Jobs queued on hosts with a prefetch depth for the tasks the round left
  // waiting: a second pass of the policy (dispatcher_prefetch.cc).
  void Prefetch(std::vector<HostState>* states, const BookFn& book);
  // Admit's answer for an MPI operation over several nodes that only a gang
  // of allocation nodes can run (`need`: the whole job's).
  Status AdmitGang(OpId op, Need need);
  // The ready gang operations' tasks, each on a whole gang or left ready
  // (before the policy, which never places them: their need allows no
  // host).
  void PlaceGangs(std::vector<HostState>& states, const BookFn& book);
  // Zeroes the hosts' GPUs unless an operation asks for some.
  void LeaveGpusOut(std::vector<HostState>* states) const;
  // Replicas of running tasks on the slots left free
  // (dispatcher_replication.cc).
  void Replicate(const std::vector<HostState>& states,
                 const std::vector<Placement>& placed, const BookFn& book);
  // The whole DAG as GTP sees it (runtime/sched/gtp_plan.h), for a policy
  // that plans over it (dispatcher_dag.cc); its task k is ids[k].
  GtpInput DagForPlanning(std::vector<TaskId>* ids) const;
  // For each placement, the alternative it runs, or null for the called
  // operation (runtime/sched/implementation_choice.h); empty when no placed
  // operation has alternatives.
  std::vector<const gs_operation*> ChooseImplementations(
      const std::vector<HostState>& states,
      const std::vector<Placement>& placed) const;

  const ReplicationConfig replication_config_;
  TaskGraph& graph_;
  const OperationTable& ops_;
  HostSet& hosts_;
  const JobTable& jobs_;
  const DataPlaces& data_;
  std::unique_ptr<Site> site_;
  Clock* clock_ = nullptr;  // set by StartPredicting
  Scheduler scheduler_;
  std::unique_ptr<EstimatorPredictor> predictor_;
  ReplicationMode replication_ = ReplicationMode::kOff;
  // By OpId: Admit's answer. Masks of KeepTo, by operation name (their
  // addresses are in the scheduler's needs).
  std::vector<Status> admitted_;
  std::map<std::string, KeptTo> kept_to_;
  // SpanNodesOn's; and by OpId, the hosts an MPI operation over several
  // nodes may run on (their addresses are in the scheduler's needs).
  HostMask spans_nodes_;
  std::map<OpId, HostMask> spanning_;
  // GangsOn's groups and nodes (by HostId); by OpId, the gang operations'
  // nodes and per-node need (its only_on: the hosts they may use); and the
  // mask that keeps the policy from placing them.
  struct Gangs {
    struct Op {
      int nodes;
      Need per_node;
    };
    std::vector<std::vector<HostId>> groups;
    std::vector<std::string> nodes;
    std::map<OpId, Op> ops;
    HostMask no_host;
  } gangs_;
  // Some admitted operation asks for GPUs: until then the rounds leave the
  // hosts' devices out (LeaveGpusOut: the board then tracks none, and MCT
  // replays its rounds, as on a machine without GPUs).
  bool gpu_needs_ = false;
  std::vector<HostState> states_scratch_;  // Round's, reused
  // HostSet::TransfersStable's answer during a round: it asks every host's
  // adapter, the predictor's stamp is read several times a round, and
  // adapters change their answer only in their own handlers.
  std::optional<bool> round_transfers_stable_;
  size_t backlog_told_ = 0;  // TellBacklog's last
  bool round_posted_ = false;
  std::unordered_map<TaskId, std::unique_ptr<Timer>> retry_timers_;
  std::unordered_map<TaskId, uint32_t> staging_failures_;
};

}  // namespace gs

#endif  // GSRT_RUNTIME_ENGINE_DISPATCHER_H_
