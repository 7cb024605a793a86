#include "runtime/engine/engine.h"

#include <unistd.h>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <type_traits>
#include <variant>

#include "runtime/base/asio_clock.h"
#include "runtime/engine/engine_hosts.h"
#include "runtime/engine/engine_journal.h"
#include "runtime/engine/job_builder.h"
#include "runtime/history/history.h"
#include "runtime/sched/exec_time_estimator.h"
#include "runtime/sched/policies_ft.h"
#include "runtime/sched/policies_grank.h"
#include "runtime/sched/policies_workqueue.h"

namespace gs {

namespace fs = std::filesystem;

namespace {

// Predictions from the execution-time estimator (seeded from the history),
// with the engine's operation and host numbering mapped onto its own.
class EstimatorPredictor : public Predictor {
 public:
  explicit EstimatorPredictor(const OperationTable* ops) : ops_(ops) {}
  ExecTimeEstimator& estimator() { return estimator_; }
  void AddHost(const std::string& name) {
    hosts_.push_back(estimator_.InternHost(name));
  }
  Seconds ExecTime(OpId op, HostId host) const override {
    if (oracle_) {
      int64_t k = OracleOp(op);
      if (k >= 0) return oracle_->Time(k, host);
    }
    return estimator_.Predict(EstimatorOp(op), hosts_[host]);
  }
  void set_oracle(std::shared_ptr<const ExecOracle> oracle) {
    oracle_ = std::move(oracle);
  }
  Seconds TransferTime(TaskId task, HostId host) const override {
    return transfer_ ? transfer_(task, host) : 0;
  }
  // The engine's estimate of moving a task's missing inputs to a host.
  void set_transfer(std::function<Seconds(TaskId, HostId)> f) {
    transfer_ = std::move(f);
  }
  void Observe(OpId op, HostId host, Seconds s) {
    estimator_.Observe(EstimatorOp(op), hosts_[host], s);
  }

 private:
  uint32_t EstimatorOp(OpId op) const {
    while (op_ids_.size() <= op) {
      op_ids_.push_back(estimator_.InternOp((*ops_)[op_ids_.size()].name));
    }
    return op_ids_[op];
  }
  int64_t OracleOp(OpId op) const {
    while (oracle_ops_.size() <= op) {
      oracle_ops_.push_back(oracle_->OpIndex((*ops_)[oracle_ops_.size()].name));
    }
    return oracle_ops_[op];
  }
  const OperationTable* ops_;
  std::shared_ptr<const ExecOracle> oracle_;
  mutable std::vector<int64_t> oracle_ops_;
  mutable ExecTimeEstimator estimator_;
  mutable std::vector<uint32_t> op_ids_;
  std::vector<uint32_t> hosts_;
  std::function<Seconds(TaskId, HostId)> transfer_;
};

}  // namespace

Engine::Engine(EngineOptions options)
    : options_(std::move(options)),
      files_(options_.cwd),
      graph_(&files_),
      scheduler_(MakeMctPolicy()) {}

Engine::~Engine() {
  if (thread_.joinable()) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      finished_cv_.MasterLeaves();
    }
    io_->stop();
    thread_.join();
  }
}

Status Engine::Start(std::vector<HostSetup> hosts) {
  auto policy = MakePolicy(options_.policy);
  if (!policy.ok()) return policy.status();
  if (options_.policy == "grank") {
    RankOptions rank;
    rank.alpha = options_.rank.alpha;
    rank.beta = options_.rank.beta;
    rank.mu = options_.rank.mu;
    rank.gamma = options_.rank.gamma;
    *policy = MakeGrankPolicy(rank);
  }
  if (options_.configure_policy) options_.configure_policy(**policy);
  if (options_.rewind != "gtp-c-r" && options_.rewind != "gtp-r" &&
      options_.rewind != "restart") {
    return Status::InvalidArgument("unknown rewinding mode '" +
                                   options_.rewind +
                                   "'; known: gtp-c-r, gtp-r, restart");
  }
  scheduler_ = Scheduler(std::move(policy).value());
  replication_ = options_.replication.mode;
  if (auto* wq = dynamic_cast<WorkQueuePolicy*>(scheduler_.mutable_policy());
      wq && replication_ == ReplicationMode::kOff) {
    replication_ = wq->replication();
  }
  health_ = std::make_unique<Health>(this);
  AttachHostHealth(*scheduler_.mutable_policy(), health_.get());
  std::error_code ec;
  fs::create_directories(options_.work_dir + "/data", ec);
  if (ec) {
    return Status::IoError("cannot create the work directory " +
                           options_.work_dir + ": " + ec.message());
  }
  fs::permissions(options_.work_dir, fs::perms::owner_all,
                  fs::perm_options::replace, ec);
  io_ = std::make_unique<boost::asio::io_context>(1);
  clock_ = MakeClock();
  auto predictor = std::make_unique<EstimatorPredictor>(&ops_);
  predictor->set_oracle(options_.exec_oracle);
  for (const HostSetup& setup : hosts) predictor->AddHost(setup.name);
  // Called while scheduling, with the engine mutex held.
  predictor->set_transfer(
      [this](TaskId t, HostId h) { return PredictTransferLocked(t, h); });
  predictor_ = std::move(predictor);
  std::string refused;
  for (HostSetup& setup : hosts) {
    auto entry = std::make_unique<HostEntry>();
    entry->name = setup.name;
    entry->worker = setup.worker;
    entry->adapter = setup.make(*io_, *clock_);
    if (!entry->adapter) {
      return Status::Internal("host '" + setup.name + "': no adapter was made");
    }
    Status s = entry->adapter->Connect();
    for (auto& fallback : setup.fallbacks) {
      if (s.ok()) break;
      std::unique_ptr<Adapter> next = fallback(*io_, *clock_);
      if (!next) continue;
      std::fprintf(stderr, "gsrt: %s; trying adapter %s\n", s.message().c_str(),
                   std::string(next->kind()).c_str());
      entry->adapter = std::move(next);
      s = entry->adapter->Connect();
    }
    entry->shared = entry->adapter->shares_master_files();
    entry->data_dir = entry->adapter->work_dir() + "/data";
    if (!s.ok()) {
      refused += "\n  " + setup.name + ": " + s.message();
      entry->usable = false;
    }
    pending_checks_.push_back(HostCheck{setup.name, clock_->Now(), s.ok(),
                                        std::nullopt, CheckSource::kRuntime});
    links_.AddHost(entry->shared);
    hosts_.push_back(std::move(entry));
  }
  bool any = false;
  for (auto& h : hosts_) any |= h->usable;
  if (!any) {
    return Status::Unavailable("no host can run jobs:" + refused);
  }
  if (!refused.empty()) {
    std::fprintf(stderr, "gsrt: some hosts are not used:%s\n", refused.c_str());
  }
  started_ = clock_->Now();
  OpenHistory();
  OpenJournal();
  thread_ = std::thread([this] {
    if (options_.virtual_time) return RunVirtualTime();
    auto guard = boost::asio::make_work_guard(*io_);
    io_->run();
  });
  if (journal_ && journal_->resuming) FetchResumeOutputs();
  if (options_.handle_signals) {
    auto signals =
        std::make_shared<boost::asio::signal_set>(*io_, SIGINT, SIGTERM);
    signals->async_wait([this](const boost::system::error_code& ec, int sig) {
      if (!ec) OnSignal(sig);
    });
    signals_ = signals;
  }
  Seconds heartbeat = 0;  // the shortest interval of any host
  for (auto& h : hosts_) {
    Seconds every = h->adapter->heartbeat_interval();
    if (every > 0 && (heartbeat == 0 || every < heartbeat)) heartbeat = every;
  }
  boost::asio::post(*io_, [this, heartbeat] {
    if (options_.progress) ScheduleProgress();
    if (history_) ScheduleHistoryFlush();
    if (heartbeat > 0) ScheduleHealthCheck(heartbeat / 2);
    ScheduleReconsider();
  });
  return Status::Ok();
}

void Engine::OpenHistory() {
  if (options_.history_path.empty()) return;
  HistoryOptions hopts;
  // Jobs end at up to ~1,500/s here: commit in groups, flushed every second.
  hopts.batch_size = 64;
  auto history = History::Open(options_.history_path, hopts);
  Status s = history.status();
  if (history.ok()) {
    auto run = (*history)->BeginRun(options_.program, options_.cwd,
                                    static_cast<int>(hosts_.size()), started_);
    s = run.status();
    if (run.ok()) {
      run_id_ = *run;
      for (const auto& h : hosts_) {
        (void)(*history)->RecordHost(
            HostInfo{h->name, std::string(h->adapter->kind()), ""});
      }
      // Predictions start from what earlier runs measured.
      if (auto samples = (*history)->LoadExecTimes(20); samples.ok()) {
        static_cast<EstimatorPredictor*>(predictor_.get())
            ->estimator()
            .Seed(*samples);
      }
      // Replication orders hosts by the success rates of earlier runs too.
      for (auto& h : hosts_) {
        if (auto r = (*history)->LoadJobSuccess(h->name); r.ok()) {
          h->jobs_ok = r->first;
          h->jobs_finished = r->second;
          jobs_ok_ += r->first;
          jobs_finished_ += r->second;
        }
      }
      // grank ranks hosts by the reliability the history accumulated.
      if (auto* grank =
              dynamic_cast<GrankPolicy*>(scheduler_.mutable_policy())) {
        std::vector<HostFacts> facts;
        for (const auto& h : hosts_) {
          HostFacts f;
          f.name = h->name;
          if (auto r = (*history)->LoadHostReliability(h->name); r.ok()) {
            f.attempts = r->attempts;
            f.not_answered = r->not_answered;
            f.distrust = r->distrust;
          }
          facts.push_back(f);
        }
        grank->SetReliability(std::move(facts));
      }
      history_ = std::move(history).value();
    }
  }
  if (!s.ok()) {
    std::fprintf(stderr,
                 "gsrt: warning: running without a history (%s); "
                 "predictions start from nothing\n",
                 s.message().c_str());
  }
}

void Engine::OnSignal(int sig) {
  uint64_t running;
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
    running = stats_.running;
  }
  std::fprintf(stderr,
               "\ngsrt: %s: stopped %llu running jobs; your files are as "
               "they were before the run (completed versions stay in "
               ".gsrt/data)\n",
               sig == SIGINT ? "interrupted" : "terminated",
               static_cast<unsigned long long>(running));
  for (auto& h : hosts_) h->adapter->Shutdown();
  RecordPending();
  if (history_) {
    (void)history_->EndRun(run_id_, RunStatus::kCancelled, clock_->Now());
  }
  std::_Exit(128 + sig);
}

void Engine::ScheduleHistoryFlush() {
  flush_timer_ = clock_->After(1.0, [this] {
    Status s = history_->Flush();
    if (!s.ok())
      std::fprintf(stderr, "gsrt: warning: history: %s\n", s.message().c_str());
    // Even when the commit failed: disk use stays bounded, and a resume
    // that misses entries only runs more (it recomputes what is gone).
    if (journal_) DeleteCollectedData();
    ScheduleHistoryFlush();
  });
}

void Engine::RecordPending() {
  std::vector<JobRecord> records;
  std::vector<HostFailure> failures;
  std::vector<HostCheck> checks;
  {
    std::lock_guard<std::mutex> lock(mu_);
    records.swap(pending_records_);
    failures.swap(pending_failures_);
    checks.swap(pending_checks_);
  }
  if (!history_) return;
  // Adapters learn queue waits; only the engine writes the history.
  for (auto& h : hosts_) {
    if (!h->adapter) continue;
    for (const QueueWaitSample& w : h->adapter->TakeQueueWaits()) {
      QueueWait row;
      row.host = h->name;
      row.partition = w.partition;
      row.submitted = w.submitted;
      row.started = w.started;
      row.run_id = run_id_;
      (void)history_->RecordQueueWait(row);
    }
  }
  for (const HostFailure& f : failures) (void)history_->RecordHostFailure(f);
  for (const HostCheck& c : checks) (void)history_->RecordHostCheck(c);
  for (const JobRecord& r : records) {
    Status s = history_->RecordJob(r);
    if (!s.ok()) {
      std::fprintf(stderr, "gsrt: warning: history: %s\n", s.message().c_str());
      break;
    }
  }
  if (journal_) WriteJournal();
}

void Engine::ShutdownOnEngineThread() {
  if (progress_timer_) progress_timer_->Cancel();
  for (auto& h : hosts_) {
    if (h->reconnect_timer) h->reconnect_timer->Cancel();
  }
  if (flush_timer_) flush_timer_->Cancel();
  if (health_timer_) health_timer_->Cancel();
  {
    std::lock_guard<std::mutex> lock(mu_);
    retry_timers_.clear();
  }
  if (journal_) {
    RecordPending();
    (void)history_->Flush();
    DeleteCollectedData();
  }
  if (reconsider_timer_) reconsider_timer_->Cancel();
  for (auto& h : hosts_) h->adapter->Shutdown();
  RecordPending();
  io_->stop();
}

std::string Engine::VersionPath(VersionId v) const {
  const Version& ver = graph_.version(v);
  const std::string& user = files_.path(ver.file);
  if (ver.number == 0) return user;
  return options_.work_dir + "/data/" + VersionFileName(v);
}

std::string Engine::VersionFileName(VersionId v) const {
  // Keep the user's base name (and so its extension) for functions that
  // look at it; bound its length to stay under NAME_MAX.
  const std::string& user = files_.path(graph_.version(v).file);
  std::string base = user.substr(user.rfind('/') + 1);
  if (base.size() > 200) base = base.substr(base.size() - 200);
  return std::to_string(v) + "-" + base;
}

TaskId Engine::Submit(const gs_operation* op, const gs_arg* args) {
  FileParam params[64];
  FileParam* files =
      op->num_params <= 64 ? params : new FileParam[op->num_params];
  int n = 0;
  for (int i = 0; i < op->num_params; ++i) {
    const gs_param_desc& p = op->params[i];
    if (p.type != GS_TYPE_FILE) continue;
    files[n++] = FileParam{args[i].str ? args[i].str : "", p.dir != GS_DIR_OUT,
                           p.dir != GS_DIR_IN};
  }
  std::string scalars;
  if (n != op->num_params) EncodeScalars(*op, args, &scalars);
  std::lock_guard<std::mutex> lock(mu_);
  OpId id = ops_.Intern(op);
  TaskId t = graph_.AddTask(id, files, n, scalars);
  if (files != params) delete[] files;
  ++stats_.submitted;
  if (journal_ && journal_->resuming && ResumeSubmittedLocked(t)) return t;
  TaskState state = graph_.task(t).state;
  if (state == TaskState::kReady) {
    scheduler_.AddReady(t, id);
    WakeLocked();
  } else if (state == TaskState::kFutile) {
    ++stats_.futile;
  }
  return t;
}

void Engine::WakeLocked() {
  if (wake_posted_ || !io_) return;
  wake_posted_ = true;
  boost::asio::post(*io_, [this] { RunSchedule(); });
}

void Engine::RunSchedule() {
  std::vector<Dispatch> out;
  {
    std::lock_guard<std::mutex> lock(mu_);
    wake_posted_ = false;
    ScheduleLocked(&out);
  }
  Send(std::move(out));
}

void Engine::ScheduleLocked(std::vector<Dispatch>* out) {
  // With replication, slots freed once nothing waits run replicas (WQR
  // replicates on the processors that become free after the last task was
  // placed), so a round is needed even with no task ready.
  if (scheduler_.num_ready() == 0 &&
      (replication_ == ReplicationMode::kOff || instances_.empty()))
    return;
  // Reused between rounds: a round follows every job's end.
  std::vector<HostState>& states = states_scratch_;
  states.resize(hosts_.size());
  for (HostId h = 0; h < hosts_.size(); ++h) {
    states[h].busy_until.clear();
    states[h].usable = hosts_[h]->usable;
    // Jobs still staging their inputs hold a slot the adapter does not
    // know about yet.
    states[h].slots =
        static_cast<int>(hosts_[h]->running - hosts_[h]->staging) +
        hosts_[h]->adapter->FreeSlots();
  }
  for (const auto& [id, job] : jobs_) {
    states[job.host].busy_until.push_back(job.predicted_end);
  }
  SchedulingInput in{clock_->Now(), &states, predictor_.get()};
  if (replication_ == ReplicationMode::kDynamic) {
    if (auto* wq = dynamic_cast<WorkQueuePolicy*>(scheduler_.mutable_policy()))
      wq->set_host_order(HostOrderLocked());
  }
  std::vector<Placement> placed = scheduler_.Schedule(in);
  for (const Placement& p : placed) {
    out->push_back(DispatchLocked(p.task, p.host, p.predicted_end, false));
  }
  if (replication_ != ReplicationMode::kOff && scheduler_.num_ready() == 0) {
    ReplicateLocked(states, placed, out);
  }
}

Engine::Dispatch Engine::DispatchLocked(TaskId t, HostId h,
                                        Seconds predicted_end, bool replica) {
  Task& task = graph_.task(t);
  task.state = TaskState::kRunning;
  // Replicas are not retries: they do not spend the task's budget.
  if (!replica) ++task.attempts;
  if (task_host_.size() <= t) task_host_.resize(graph_.num_tasks(), kNoHost);
  if (!replica) task_host_[t] = h;
  HostEntry& host = *hosts_[h];
  JobSpec spec = BuildJobSpec(
      graph_, t, ops_[task.op], [this, h](VersionId v) { return PathOn(v, h); },
      host.worker);
  spec.id = next_job_++;
  if (auto it = options_.timeouts.find(spec.operation);
      it != options_.timeouts.end()) {
    spec.timeout = it->second;
  }
  JobEntry entry{t,       h, predicted_end, clock_->Now(), task.attempts,
                 replica, {}};
  if (replica && host.shared) {
    // Instances on hosts sharing the master's files would write the same
    // version files: a replica writes beside them and moves its outputs into
    // place only if it wins.
    for (JobParam& p : spec.params) {
      if (p.dest.empty()) continue;
      std::string final_path = p.dest;
      p.dest += ".replica" + std::to_string(spec.id);
      entry.replica_outputs.push_back({p.dest, final_path});
    }
  }
  jobs_.emplace(spec.id, std::move(entry));
  instances_[t].push_back(spec.id);
  ++host.running;
  if (!replica) ++stats_.running;
  ++stats_.jobs;
  if (replica) ++stats_.replicas;
  ++stats_.jobs_per_host[host.name];
  std::vector<VersionId> inputs;
  const FileAccess* acc = graph_.accesses(t);
  for (uint32_t i = 0; i < task.num_files; ++i) {
    if (acc[i].in != kNoVersion && !HasCopyLocked(acc[i].in, h)) {
      inputs.push_back(acc[i].in);
    }
  }
  if (!inputs.empty()) ++host.staging;
  return Dispatch{h, std::move(spec), std::move(inputs)};
}

void Engine::Send(std::vector<Dispatch> dispatches) {
  for (Dispatch& d : dispatches) {
    if (!d.inputs.empty()) {
      StageAndSubmit(std::move(d));
      continue;
    }
    hosts_[d.host]->adapter->Submit(
        std::move(d.spec),
        [this, host = d.host](JobReport report) { OnJobDone(host, report); });
  }
}

void Engine::OnJobDone(HostId host_id, JobReport report, bool host_at_fault) {
  std::vector<Dispatch> out;
  std::vector<std::string> doomed;
  std::vector<std::pair<HostId, JobId>> cancels;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = jobs_.find(report.id);
    if (it == jobs_.end()) return;
    JobEntry job = std::move(it->second);
    jobs_.erase(it);
    HostEntry& host = *hosts_[host_id];
    --host.running;
    Task& task = graph_.task(job.task);
    const OperationInfo& op = ops_[task.op];
    // The task's other instances still running (a copy: the map changes).
    std::vector<JobId> instances;
    if (auto in = instances_.find(job.task); in != instances_.end()) {
      std::erase(in->second, report.id);
      instances = in->second;
      if (instances.empty()) instances_.erase(in);
    }
    const bool last_instance = instances.empty();
    // Another instance already won, or the task was put back and runs
    // again: this job's outcome no longer decides anything.
    const bool superseded =
        task.state != TaskState::kRunning || job.attempt != task.attempts;
    if (history_) {
      JobSpec spec;  // what the record needs of the job
      spec.id = report.id;
      spec.task = job.task;
      spec.operation = op.name;
      JobRecord rec =
          JobRecordFromReport(run_id_, spec, host.name, report, job.replica);
      if (rec.submitted == 0) rec.submitted = job.submitted;
      pending_records_.push_back(std::move(rec));
    }
    if (!std::holds_alternative<Cancelled>(report.outcome)) {
      ++host.jobs_finished;
      ++jobs_finished_;
    }
    std::vector<TaskId> ready;
    std::string error, log_dir;
    int budget = 0;
    auto* exited = std::get_if<Exited>(&report.outcome);
    if (exited && exited->succeeded()) {
      ++host.jobs_ok;
      ++jobs_ok_;
    }
    if (auto* failed = std::get_if<HostFailed>(&report.outcome)) {
      // Infrastructure failures are the host's, not the task's: the task's
      // own budget is charged only for its own failures.
      if (host.usable && host_at_fault) HostLostLocked(host_id, failed->reason);
    }
    if (superseded) {
      for (auto& [dest, final_path] : job.replica_outputs)
        doomed.push_back(dest);
    } else if (exited && exited->succeeded()) {
      for (auto& [dest, final_path] : job.replica_outputs) {
        ::rename(dest.c_str(), final_path.c_str());
      }
      if (job.replica) ++stats_.replica_wins;
      task_host_[job.task] = host_id;
      for (JobId other : instances) {
        cancels.push_back({jobs_.at(other).host, other});
      }
      --stats_.running;
      static_cast<EstimatorPredictor*>(predictor_.get())
          ->Observe(task.op, host_id, report.ended - report.started);
      if (op.synchronous) results_[job.task] = std::move(exited->results);
      const FileAccess* acc = graph_.accesses(job.task);
      uint32_t outputs = 0;
      for (uint32_t i = 0; i < task.num_files; ++i)
        outputs += acc[i].out != kNoVersion;
      for (uint32_t i = 0; i < task.num_files; ++i) {
        if (acc[i].out == kNoVersion) continue;
        Version& out_version = graph_.version(acc[i].out);
        // Adapters report the total; an even split is enough to predict
        // transfer times.
        out_version.size = exited->bytes_out / std::max(outputs, 1u);
        // The new data is where the job ran (a rewound task may have run
        // elsewhere before).
        out_version.on_master = host.shared;
        if (host.shared) {
          remote_copies_.erase(acc[i].out);
        } else {
          remote_copies_[acc[i].out] = {host_id};
        }
      }
      FinishTaskLocked(job.task, &ready);
    } else {
      for (auto& [dest, final_path] : job.replica_outputs)
        doomed.push_back(dest);
      if (exited) {
        error = exited->error.empty()
                    ? "exit code " + std::to_string(exited->code)
                    : exited->error;
        log_dir = exited->log_dir;
        budget = options_.retries.app;
        for (int code : options_.retries.unless_exit) {
          if (exited->code == code) budget = 0;  // the application says: final
        }
      } else if (auto* failed = std::get_if<HostFailed>(&report.outcome)) {
        error = "host " + host.name + " failed: " + failed->reason;
        budget = options_.retries.infra;
      } else if (auto* timed = std::get_if<TimedOut>(&report.outcome)) {
        error = "timed out after " + std::to_string(timed->limit) + " s";
        budget = options_.retries.timeout;
      } else {
        error = "cancelled";
        budget = stopping_ ? -1 : options_.retries.infra;
      }
    }
    // While another instance still runs, a failed one needs no retry: the
    // task is not lost yet.
    if (!error.empty() && last_instance) {
      --stats_.running;
      // A job whose inputs could not be staged never ran: its attempt is
      // given back. Not indefinitely, though: a task whose inputs keep
      // failing to arrive is charged after a few tries, so its budget ends
      // it.
      if (!host_at_fault && ++staging_failures_[job.task] <= 3 &&
          task.attempts > 0) {
        --task.attempts;
      }
      if (static_cast<int>(task.attempts) <= budget) {
        ++stats_.retries;
        RetryLaterLocked(job.task);
      } else {
        FailTaskLocked(job.task, error, log_dir);
      }
    }
    for (TaskId t : ready) scheduler_.AddReady(t, graph_.task(t).op);
    CollectGarbageLocked(&doomed);
    if (!stopping_) ScheduleLocked(&out);
    if (waiters_ > 0) finished_cv_.notify_all();
  }
  for (const std::string& path : doomed) ::unlink(path.c_str());
  for (auto [h, id] : cancels) hosts_[h]->adapter->Cancel(id);
  Send(std::move(out));
  RecordPending();
}

void Engine::RetryLaterLocked(TaskId t) {
  const RetryBudgets& r = options_.retries;
  Task& task = graph_.task(t);
  Seconds delay = r.backoff;
  for (uint32_t i = 1; i < task.attempts && delay < r.backoff_max; ++i) {
    delay *= 2;
  }
  delay = std::min(delay, r.backoff_max);
  if (delay <= 0 || stopping_) return RequeueLocked(t);
  // Waiting with nothing missing marks a task backing off; a rewind that
  // requeues it meanwhile makes the timer's requeue a no-op.
  task.state = TaskState::kWaiting;
  task.missing_inputs = 0;
  retry_timers_[t] = clock_->After(delay, [this, t] {
    std::vector<Dispatch> out;
    {
      std::lock_guard<std::mutex> lock(mu_);
      retry_timers_.erase(t);
      Task& task = graph_.task(t);
      if (stopping_ || task.state != TaskState::kWaiting ||
          task.missing_inputs != 0) {
        return;
      }
      RequeueLocked(t);
      ScheduleLocked(&out);
    }
    Send(std::move(out));
  });
}

void Engine::FinishTaskLocked(TaskId t, std::vector<TaskId>* ready) {
  graph_.MarkDone(t, ready);
  ++stats_.done;
  if (journal_) JournalFinishedLocked(t);
}

void Engine::FailTaskLocked(TaskId t, const std::string& error,
                            const std::string& log_dir) {
  std::vector<TaskId> futile;
  graph_.MarkFailed(t, &futile);
  ++stats_.failed;
  stats_.futile += futile.size();
  const Task& task = graph_.task(t);
  stats_.failures.push_back(
      {t, ops_[task.op].name, error, log_dir, static_cast<int>(task.attempts)});
  if (!futile.empty()) {
    scheduler_.RemoveIf([this](TaskId id) {
      return graph_.task(id).state == TaskState::kFutile;
    });
  }
}

void Engine::CollectGarbageLocked(std::vector<std::string>* doomed) {
  for (VersionId v : graph_.TakeGarbage()) {
    if (journal_) {
      // Deleted after the next history commit (DeleteCollectedData).
      journal_->collected.push_back(v);
      continue;
    }
    if (graph_.version(v).on_master) doomed->push_back(VersionPath(v));
    graph_.version(v).on_master = false;  // its data is gone everywhere
    if (remote_copies_.count(v)) {
      // Remote copies are removed through their adapters, on the engine
      // thread.
      boost::asio::post(*io_, [this, v] { RemoveVersionData(v); });
    }
  }
}

bool Engine::AllFinishedLocked() const { return stats_.all_finished(); }

Status Engine::WaitForResults(TaskId t, const gs_arg* args, void* return_slot) {
  std::unique_lock<std::mutex> lock(mu_);
  ++waiters_;
  finished_cv_.wait(lock, [&] {
    TaskState s = graph_.task(t).state;
    return s == TaskState::kDone || s == TaskState::kFailed ||
           s == TaskState::kFutile;
  });
  --waiters_;
  const Task& task = graph_.task(t);
  const OperationInfo& op = ops_[task.op];
  if (task.state != TaskState::kDone) {
    std::string why = task.state == TaskState::kFutile
                          ? "an input it needs was never produced"
                          : "it failed";
    for (const TaskFailure& f : stats_.failures) {
      if (f.task == t) why = f.error;
    }
    return Status::FailedPrecondition("task " + std::to_string(t) + " (" +
                                      op.name + ") has no result: " + why);
  }
  auto it = results_.find(t);
  std::string results = it == results_.end() ? "" : std::move(it->second);
  if (it != results_.end()) results_.erase(it);
  return DecodeResults(*op.desc, results, args, return_slot);
}

void Engine::Barrier() {
  std::unique_lock<std::mutex> lock(mu_);
  ++waiters_;
  finished_cv_.wait(lock, [&] { return AllFinishedLocked(); });
  --waiters_;
}

void Engine::ScheduleProgress() {
  progress_timer_ = clock_->After(0.25, [this] {
    ShowProgress();
    ScheduleProgress();
  });
}

void Engine::ShowProgress() {
  std::string line;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stopping_) return;
    line = FormatProgress(stats_);
  }
  std::fprintf(stderr, "\r%s\033[K", line.c_str());
}

}  // namespace gs
