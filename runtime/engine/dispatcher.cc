// Scheduling rounds: the policy places the ready tasks, then replicas or
// prefetched jobs use what is left (dispatcher.h). A round follows every
// submission burst, every job's end and every host that comes back.
#include "runtime/engine/dispatcher.h"

#include <algorithm>
#include <utility>

#include "runtime/base/joined.h"
#include "runtime/sched/gang_choice.h"
#include "runtime/sched/gtp_plan.h"
#include "runtime/sched/implementation_choice.h"
#include "runtime/sched/policies_ft.h"
#include "runtime/sched/policies_gtp.h"

namespace gs {

Need NeedOfOperation(const gs_operation& op) {
  // An MPI job over k nodes holds its cores on each: k times as many of the
  // host's slots (a batch host's slots count the cores of its jobs).
  Need need{std::max(1, op.computing_units) * std::max(1, op.nodes),
            std::max(0.0, op.memory_gb)};
  need.gpus = std::max(0, op.gpus);
  return need;
}

Dispatcher::Dispatcher(const ReplicationConfig& replication, TaskGraph& graph,
                       const OperationTable& ops, HostSet& hosts,
                       const JobTable& jobs, const DataPlaces& data,
                       std::unique_ptr<Site> site)
    : replication_config_(replication),
      graph_(graph),
      ops_(ops),
      hosts_(hosts),
      jobs_(jobs),
      data_(data),
      site_(std::move(site)),
      scheduler_(MakeMctPolicy()),
      replication_(replication.mode) {}

void Dispatcher::SetPolicy(std::unique_ptr<Policy> policy) {
  scheduler_ = Scheduler(std::move(policy));
  replication_ = replication_config_.mode;
  if (replication_ == ReplicationMode::kOff) {
    replication_ = scheduler_.policy().needs().replication;
  }
  AttachHostHealth(*scheduler_.mutable_policy(), &hosts_);
}

void Dispatcher::StartPredicting(Clock* clock,
                                 std::shared_ptr<const ExecOracle> oracle,
                                 const std::vector<std::string>& host_names) {
  clock_ = clock;
  predictor_ = std::make_unique<EstimatorPredictor>(&ops_);
  predictor_->set_oracle(std::move(oracle));
  for (const std::string& name : host_names) predictor_->AddHost(name);
  // Called while scheduling, with the engine mutex held.
  predictor_->set_transfer(
      [this](TaskId t, HostId h) { return data_.PredictTransfer(t, h); });
  predictor_->set_transfers_stable([this] {
    return round_transfers_stable_ ? *round_transfers_stable_
                                   : hosts_.TransfersStable();
  });
}

Status Dispatcher::Admit(OpId op) {
  if (op < admitted_.size()) return admitted_[op];
  const gs_operation& desc = *ops_[op].desc;
  Need need = NeedOfOperation(desc);
  auto kept = kept_to_.find(desc.name);
  // A restriction every host meets costs nothing (the need stays simple).
  if (kept != kept_to_.end() &&
      std::find(kept->second.hosts.begin(), kept->second.hosts.end(), false) !=
          kept->second.hosts.end())
    need.only_on = &kept->second.hosts;
  if (desc.nodes > 1) {
    // Only a host that allocates several nodes to one job runs it: all of
    // its nodes at once (the queue's gang), so no two jobs hold half.
    HostMask& spanning = spanning_[op];
    spanning.assign(hosts_.size(), false);
    std::vector<std::string> names;
    bool any = false;
    for (HostId h = 0; h < hosts_.size(); ++h) {
      spanning[h] =
          h < spans_nodes_.size() && spans_nodes_[h] && need.Allows(h);
      any = any || spanning[h];
      names.push_back(hosts_[h]->name);
    }
    if (!any) return AdmitGang(op, need);
    need.only_on = &spanning;
  }
  scheduler_.SetNeed(op, need);
  gpu_needs_ = gpu_needs_ || need.gpus > 0;
  Status admitted = Status::Ok();
  if (!need.simple()) {
    std::vector<std::string> capacities;  // of the hosts it may run on
    bool fits = false;
    for (HostId h = 0; h < hosts_.size() && !fits; ++h) {
      if (!need.Allows(h)) continue;
      const HostEntry& host = *hosts_[h];
      // Pilots' GPUs are known only once they serve: not refused here.
      fits = need.cores <= host.cores &&
             (host.memory_gb == 0 || need.memory_gb <= host.memory_gb) &&
             (need.gpus <= host.gpus.size() || host.gpus.learned());
      capacities.push_back(
          host.name + " has " +
          FormatCapacity(host.cores, host.memory_gb, host.gpus.size()));
    }
    if (capacities.empty()) {  // kept to labels no host of the run carries
      std::vector<std::string> names;
      for (const auto& host : hosts_) names.push_back(host->name);
      admitted = Status::InvalidArgument(
          "operation '" + std::string(desc.name) +
          "' may run only on hosts labelled " +
          Joined(kept->second.labels, ", ") +
          " (runtime.hosts in gsrt.yaml), and none of this run's hosts (" +
          Joined(names, ", ") +
          ") carries one: give a host one of these labels, or change "
          "runtime.hosts");
    } else if (!fits) {
      admitted = Status::InvalidArgument(
          "operation '" + std::string(desc.name) + "' needs " +
          FormatCapacity(need.cores, need.memory_gb, need.gpus) +
          " (its @Constraints in the IDL) but no host has that much: " +
          Joined(capacities, "; ") +
          ". Give a host more slots, memory or gpus in gsrt.yaml, or lower "
          "the constraints");
    }
  }
  // Operations are interned in order: `op` is the next one.
  admitted_.resize(op + 1);
  admitted_[op] = admitted;
  return admitted;
}

void Dispatcher::GangsOn(const std::vector<GangNode>& hosts) {
  std::map<std::string, std::vector<HostId>> groups;
  gangs_.nodes.clear();
  for (HostId h = 0; h < hosts.size(); ++h) {
    gangs_.nodes.push_back(hosts[h].node);
    if (!hosts[h].group.empty()) groups[hosts[h].group].push_back(h);
  }
  gangs_.groups.clear();
  for (auto& [name, members] : groups) gangs_.groups.push_back(members);
  gangs_.no_host.assign(hosts.size(), false);
}

const std::string& Dispatcher::NodeOf(HostId h) const {
  static const std::string kNone;
  return h < gangs_.nodes.size() ? gangs_.nodes[h] : kNone;
}

Status Dispatcher::AdmitGang(OpId op, Need need) {
  const gs_operation& desc = *ops_[op].desc;
  // Each node's share: the need counted every node's cores.
  need.cores = std::max(1, desc.computing_units);
  std::vector<HostState> capacities(hosts_.size());
  std::vector<std::string> names;
  for (HostId h = 0; h < hosts_.size(); ++h) {
    const HostEntry& host = *hosts_[h];
    capacities[h].slots = host.cores;
    capacities[h].memory_gb = host.memory_gb;
    capacities[h].gpus = host.gpus.learned() ? need.gpus : host.gpus.size();
    names.push_back(host.name);
  }
  admitted_.resize(op + 1);
  if (!SomeGangFits(capacities, gangs_.groups, desc.nodes, need,
                    need.only_on)) {
    admitted_[op] = Status::InvalidArgument(
        "operation '" + std::string(desc.name) + "' is an MPI job over " +
        std::to_string(desc.nodes) + " nodes of " + std::to_string(need.cores) +
        " cores each (@MPI processes over processesPerNode), and none of " +
        "this run's hosts (" + Joined(names, ", ") +
        ") runs a job over several nodes: add a slurm or pbs host in job "
        "mode (its queue allocates the nodes), or run the master inside an "
        "allocation of enough nodes with a host in `mode: allocation` "
        "(docs/sites.md), or set processesPerNode to processes to run it "
        "on one host");
    return admitted_[op];
  }
  gangs_.ops[op] = Gangs::Op{desc.nodes, need};
  // The policy never places it: PlaceGangs does, before the policy's pass.
  Need hidden = need;
  hidden.only_on = &gangs_.no_host;
  scheduler_.SetNeed(op, hidden);
  gpu_needs_ = gpu_needs_ || need.gpus > 0;
  admitted_[op] = Status::Ok();
  return admitted_[op];
}

namespace {

// How long the cores held for a waiting gang look busy to the policy: one
// round (the next round holds them again while it still waits).
constexpr Seconds kHeldForAGang = 3600;

}  // namespace

void Dispatcher::PlaceGangs(std::vector<HostState>& states,
                            const BookFn& book) {
  std::vector<TaskId> placed;
  const Seconds now = clock_->Now();
  // A suspect host gets no gang: a node that may be gone would fail the
  // whole job (and a job that lost one would go back to it). Read once a
  // round, and only in a round where a gang is ready.
  HostMask up;
  HostMask allowed;
  for (const ReadyTask& r : scheduler_.ready()) {
    auto gang = gangs_.ops.find(r.op);
    if (gang == gangs_.ops.end()) continue;
    const Need& per_node = gang->second.per_node;
    if (up.empty()) {
      up.resize(hosts_.size());
      for (HostId h = 0; h < hosts_.size(); ++h) {
        up[h] = hosts_.HealthOf(h) == HealthState::kUp;
      }
    }
    allowed = up;
    for (HostId h = 0; h < allowed.size(); ++h) {
      allowed[h] = allowed[h] && per_node.Allows(h);
    }
    std::vector<HostId> hosts = ChooseGang(
        states, gangs_.groups, gang->second.nodes, per_node, &allowed);
    if (hosts.empty()) {
      // It waits for the cores its hosts still lack: what they have free
      // now is held for it, this round, from the smaller jobs the policy
      // places next (which could otherwise keep it waiting forever).
      for (HostId h : GangToWaitFor(states, gangs_.groups, gang->second.nodes,
                                    per_node, &allowed)) {
        if (const int free = states[h].free_slots(); free > 0) {
          states[h].AddBusy(now + kHeldForAGang, Need{free});
        }
      }
      continue;
    }
    const Seconds end = now + predictor_->ExecTime(r.op, hosts.front());
    for (HostId h : hosts) states[h].AddBusy(end, per_node);
    placed.push_back(r.id);
    book({r.id, hosts.front(), end, /*replica=*/false, nullptr,
          std::vector<HostId>(hosts.begin() + 1, hosts.end())});
  }
  if (placed.empty()) return;
  scheduler_.RemoveIf([&placed](TaskId id) {
    return std::find(placed.begin(), placed.end(), id) != placed.end();
  });
}

void Dispatcher::LeaveGpusOut(std::vector<HostState>* states) const {
  if (gpu_needs_) return;
  for (HostState& s : *states) s.gpus = 0;
}

void Dispatcher::Round(const BookFn& book) {
  // With replication, slots freed once nothing waits run replicas (WQR
  // replicates on the processors that become free after the last task was
  // placed), so a round is needed even with no task ready.
  if (scheduler_.num_ready() == 0 &&
      (replication_ == ReplicationMode::kOff || jobs_.instances().empty())) {
    TellBacklog(0);
    return;
  }
  // Reused between rounds: a round follows every job's end.
  std::vector<HostState>& states = states_scratch_;
  hosts_.LearnHostStates(&states);
  LeaveGpusOut(&states);
  for (const JobTable::Running& job : jobs_.running()) {
    states[job.host].AddBusy(job.predicted_end, job.need);
  }
  for (const JobTable::Running& hold : jobs_.gang_holds()) {
    states[hold.host].AddBusy(hold.predicted_end, hold.need);
  }
  round_transfers_stable_ = hosts_.TransfersStable();
  if (replication_ == ReplicationMode::kDynamic &&
      scheduler_.policy().needs().host_order) {
    scheduler_.mutable_policy()->SetHostOrder(hosts_.Order(true));
  }
  if (!gangs_.ops.empty()) PlaceGangs(states, book);
  std::vector<Placement> placed;
  PlaceReady(states, &placed, book);
  if (replication_ != ReplicationMode::kOff && scheduler_.num_ready() == 0) {
    Replicate(states, placed, book);
  } else if (hosts_.any_prefetch() && replication_ == ReplicationMode::kOff &&
             scheduler_.num_ready() > 0) {
    Prefetch(&states, book);
  }
  round_transfers_stable_.reset();
  TellBacklog(scheduler_.num_ready());
}

void Dispatcher::PlaceReady(std::vector<HostState>& states,
                            std::vector<Placement>* placed,
                            const BookFn& book) {
  SchedulingInput in{clock_->Now(), &states, predictor_.get()};
  if (auto* dag = dynamic_cast<DagPlanningPolicy*>(scheduler_.mutable_policy());
      dag && dag->WantsDag(in.now, scheduler_.ready(), states)) {
    std::vector<TaskId> ids;
    GtpInput input = DagForPlanning(&ids);
    dag->SetDag(input, std::move(ids));
  }
  *placed = scheduler_.Schedule(in);
  std::vector<const gs_operation*> implementations =
      ChooseImplementations(states, *placed);
  for (size_t i = 0; i < placed->size(); ++i) {
    const Placement& p = (*placed)[i];
    book({p.task, p.host, p.predicted_end, /*replica=*/false,
          implementations.empty() ? nullptr : implementations[i]});
  }
}

void Dispatcher::TellBacklog(size_t backlog) {
  // When it starts, stops, doubles or halves: a round per job end would
  // otherwise cost a call per host each (a thousand simulated hosts).
  const size_t told = backlog_told_;
  const bool news = (backlog == 0) != (told == 0) || backlog >= 2 * told ||
                    2 * backlog <= told;
  if (!news || backlog == told) return;
  backlog_told_ = backlog;
  const int tasks = static_cast<int>(std::min<size_t>(backlog, 1 << 30));
  for (auto& host : hosts_) host->adapter->NoteBacklog(tasks);
}

std::vector<const gs_operation*> Dispatcher::ChooseImplementations(
    const std::vector<HostState>& states,
    const std::vector<Placement>& placed) const {
  std::vector<const gs_operation*> chosen;
  bool any = false;
  for (const Placement& p : placed) {
    any |= ops_[graph_.task(p.task).op].desc->num_alternatives > 0;
  }
  if (!any) return chosen;  // the common case: one pass, no allocation
  chosen.assign(placed.size(), nullptr);
  std::vector<std::vector<Need>> placed_needs(states.size());
  for (const Placement& p : placed) {
    placed_needs[p.host].push_back(scheduler_.NeedOf(graph_.task(p.task).op));
  }
  std::vector<std::optional<SpareRoom>> spare(states.size());
  for (size_t i = 0; i < placed.size(); ++i) {
    const Placement& p = placed[i];
    const OpId op = graph_.task(p.task).op;
    const gs_operation& desc = *ops_[op].desc;
    if (desc.num_alternatives == 0) continue;
    if (!spare[p.host]) {
      spare[p.host] = SpareAfterRound(states[p.host], placed_needs[p.host]);
    }
    std::vector<Need> needs;
    for (int k = 0; k < desc.num_alternatives; ++k) {
      needs.push_back(NeedOfOperation(*desc.alternatives[k]));
    }
    int k = ChooseImplementation(scheduler_.NeedOf(op), needs, &*spare[p.host]);
    if (k >= 0) chosen[i] = desc.alternatives[k];
  }
  return chosen;
}

void Dispatcher::Requeue(TaskId t) {
  Task& task = graph_.task(t);
  const FileAccess* acc = graph_.accesses(t);
  task.missing_inputs = 0;
  for (uint32_t i = 0; i < task.num_files; ++i) {
    if (acc[i].in == kNoVersion) continue;
    Version& v = graph_.version(acc[i].in);
    if (v.state == VersionState::kAvailable) continue;
    ++task.missing_inputs;
    graph_.AddWaiting(acc[i].in, t);
  }
  task.state =
      task.missing_inputs == 0 ? TaskState::kReady : TaskState::kWaiting;
  if (task.state == TaskState::kReady) AddReady(t);
}

void Dispatcher::RetryLater(TaskId t, Seconds delay) {
  if (delay <= 0) return Requeue(t);
  // Waiting with nothing missing marks a task backing off; a rewind that
  // requeues it meanwhile makes the timer's requeue a no-op.
  Task& task = graph_.task(t);
  task.state = TaskState::kWaiting;
  task.missing_inputs = 0;
  retry_timers_[t] = clock_->After(delay, [this, t] { site_->RetryDue(t); });
}

bool Dispatcher::RetryEnded(TaskId t, bool stopping) {
  retry_timers_.erase(t);
  const Task& task = graph_.task(t);
  if (stopping || task.state != TaskState::kWaiting ||
      task.missing_inputs != 0) {
    return false;
  }
  Requeue(t);
  return true;
}

uint32_t Dispatcher::staging_failures(TaskId t) const {
  auto it = staging_failures_.find(t);
  return it == staging_failures_.end() ? 0 : it->second;
}

}  // namespace gs
