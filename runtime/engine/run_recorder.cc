#include "runtime/engine/run_recorder.h"

#include <algorithm>
#include <unordered_map>

#include "runtime/history/history.h"

namespace gs {

RunRecorder::RunRecorder(const TaskGraph& graph, const OperationTable& ops,
                         MessageSink& messages)
    : graph_(graph), ops_(ops), messages_(messages) {}

RunRecorder::~RunRecorder() = default;

void RunRecorder::AddHost(std::string name, std::string adapter_kind,
                          bool connected) {
  const Seconds now = clock_->Now();
  HostName host{name, std::move(adapter_kind), CheckPace()};
  host.checks.Counts(now, connected);  // the first attempt always counts
  pending_.checks.push_back(HostCheck{std::move(name), now, connected,
                                      std::nullopt, CheckSource::kRuntime});
  hosts_.push_back(std::move(host));
}

bool RunRecorder::OpenHistory(const std::string& path, std::string_view program,
                              std::string_view cwd, Seconds started) {
  if (path.empty()) return false;
  HistoryOptions options;
  // Rows come in groups (RecordPending) and are committed by the flush
  // timer, or sooner when a transaction would grow past this.
  options.batch_size = 4 * kWriteRows;
  auto history = History::Open(path, options);
  Status s = history.status();
  if (history.ok()) {
    auto run = (*history)->BeginRun(program, cwd,
                                    static_cast<int>(hosts_.size()), started);
    s = run.status();
    if (run.ok()) {
      run_id_ = *run;
      for (const HostName& h : hosts_) {
        (void)(*history)->RecordHost(HostInfo{h.name, h.adapter_kind, ""});
      }
      history_ = std::move(history).value();
    }
  }
  if (!s.ok()) {
    Sayf(messages_, MessageKind::kWarning,
         "gsrt: warning: running without a history (%s); "
         "predictions start from nothing\n",
         s.message().c_str());
  }
  return history_ != nullptr;
}

HistoryLessons RunRecorder::ReadLessons(bool reliability) {
  HistoryLessons lessons;
  if (auto samples = history_->LoadExecTimes(20); samples.ok()) {
    lessons.exec_times = std::move(samples).value();
  }
  for (const HostName& h : hosts_) {
    auto r = history_->LoadJobSuccess(h.name);
    lessons.job_success.push_back(r.ok() ? std::optional(*r) : std::nullopt);
  }
  if (!reliability) return lessons;
  for (const HostName& h : hosts_) {
    auto r = history_->LoadHostReliability(h.name);
    lessons.reliability.push_back(r.ok() ? std::optional(*r) : std::nullopt);
  }
  return lessons;
}

void RunRecorder::ReportRunStarted(
    Mutex* mu, Seconds started,
    const std::vector<std::shared_ptr<RunObserver>>& observers) {
  started_ = started;
  for (const auto& o : observers) observers_.Add(o);
  if (observers_.empty()) return;
  std::vector<std::string> names;
  for (const HostName& h : hosts_) names.push_back(h.name);
  MutexLock lock(mu);
  observers_.OnRunStarted(started, names);
}

void RunRecorder::ReportTaskSubmitted(const Mutex& mu, TaskId t) {
  TaskRecord rec;
  rec.task = t;
  const Task& task = graph_.task(t);
  rec.operation = ops_[task.op].name;
  rec.submitted = clock_->Now();
  const FileAccess* acc = graph_.accesses(t);
  for (uint32_t i = 0; i < task.num_files; ++i) {
    if (acc[i].in == kNoVersion) continue;
    TaskId producer = graph_.version(acc[i].in).producer;
    if (producer == kMasterTask) continue;
    if (std::find(rec.depends_on.begin(), rec.depends_on.end(), producer) ==
        rec.depends_on.end()) {
      rec.depends_on.push_back(producer);
    }
  }
  observers_.OnTaskSubmitted(rec);
  if (history_) pending_.tasks.push_back(std::move(rec));
}

JobStart RunRecorder::JobStartOf(JobId job, TaskId t, HostId h, Seconds at,
                                 int slots) const {
  JobStart start;
  start.job = job;
  start.task = t;
  start.operation = ops_[graph_.task(t).op].name;
  start.host = hosts_[h].name;
  start.time = at;
  start.slots = slots;
  return start;
}

void RunRecorder::ReportJobStart(const Mutex& mu, JobId job, TaskId t, HostId h,
                                 bool replica, bool queued, int slots) {
  JobStart start = JobStartOf(job, t, h, clock_->Now(), slots);
  start.replica = replica;
  start.queued = queued;
  observers_.OnJobStarted(start);
  if (!replica) return;
  RunEvent e{"replica", start.time};
  e.host = start.host;
  e.task = t;
  e.detail = "job " + std::to_string(job);
  ReportEvent(mu, std::move(e));
}

void RunRecorder::ReportJobRunning(const Mutex& mu, JobId job, TaskId t,
                                   HostId h, Seconds at, int slots) {
  observers_.OnJobRunning(JobStartOf(job, t, h, at, slots));
}

void RunRecorder::RecordJob(const Mutex& mu, TaskId task, HostId host,
                            const JobReport& report, bool replica,
                            Seconds submitted, Seconds got_slot) {
  if (!watched()) return;
  JobSpec spec;  // what the record needs of the job
  spec.id = report.id;
  spec.task = task;
  spec.operation = ops_[graph_.task(task).op].name;
  JobRecord rec =
      JobRecordFromReport(run_id_, spec, hosts_[host].name, report, replica);
  if (rec.submitted == 0) rec.submitted = submitted;
  // A prefetched job waited in the host's queue: its run time starts when
  // it got a slot, so a host never shows more jobs at once than slots.
  if (rec.started > 0 && rec.started < got_slot) {
    rec.started = rec.ended > 0 ? std::min(got_slot, rec.ended) : got_slot;
  }
  observers_.OnJobEnded(rec);
  if (history_) pending_.jobs.push_back(std::move(rec));
}

void RunRecorder::ReportEvent(const Mutex& mu, RunEvent event) {
  observers_.OnEvent(event);
  if (history_) pending_.events.push_back(std::move(event));
}

void RunRecorder::ReportTaskEnd(const Mutex& mu, TaskId t, const char* state) {
  TaskEnd end{t, state, clock_->Now()};
  observers_.OnTaskEnded(end);
  if (history_) pending_.task_ends.push_back(std::move(end));
}

void RunRecorder::RecordCheck(const Mutex& mu, HostId host, bool answered) {
  const Seconds now = clock_->Now();
  // A retry within an outage is not another check (check_pace.h).
  if (!hosts_[host].checks.Counts(now, answered)) return;
  pending_.checks.push_back(HostCheck{hosts_[host].name, now, answered,
                                      std::nullopt, CheckSource::kRuntime});
}

void RunRecorder::RecordHostLost(const Mutex& mu, HostId host,
                                 const std::string& why) {
  pending_.failures.push_back(HostFailure{hosts_[host].name, clock_->Now(),
                                          "host_lost", why, run_id_, 0});
}

size_t RunRecorder::PendingRows(const Mutex& mu) const {
  const Pending& p = pending_;
  return p.jobs.size() + p.failures.size() + p.checks.size() + p.tasks.size() +
         p.task_ends.size() + p.events.size();
}

RunRecorder::Pending RunRecorder::TakePending(const Mutex& mu) {
  Pending taken;
  std::swap(taken, pending_);
  return taken;
}

void RunRecorder::Write(Pending pending) {
  if (!history_) return;
  for (QueueWait& w : pending.queue_waits) {
    w.run_id = run_id_;
    (void)history_->RecordQueueWait(w);
  }
  for (const HostFailure& f : pending.failures) {
    (void)history_->RecordHostFailure(f);
  }
  for (const HostCheck& c : pending.checks) (void)history_->RecordHostCheck(c);
  // A task that ended in this batch too (a reused one, or a short run
  // between flushes) is written ended, in one statement.
  std::unordered_map<TaskId, size_t> ends;  // of tasks submitted in it
  if (!pending.tasks.empty() && !pending.task_ends.empty()) {
    std::unordered_map<TaskId, size_t> last;
    for (size_t i = 0; i < pending.task_ends.size(); ++i)
      last[pending.task_ends[i].task] = i;
    for (const TaskRecord& t : pending.tasks) {
      if (auto it = last.find(t.task); it != last.end()) ends.insert(*it);
    }
  }
  for (const TaskRecord& t : pending.tasks) {
    auto end = ends.find(t.task);  // its last end, if it has one
    (void)history_->RecordTask(
        run_id_, t,
        end == ends.end() ? nullptr : &pending.task_ends[end->second]);
  }
  for (const RunEvent& e : pending.events) {
    (void)history_->RecordRunEvent(run_id_, e);
  }
  for (const JobRecord& r : pending.jobs) {
    if (Status s = history_->RecordJob(r); !s.ok()) {
      WarnHistory(s);
      break;
    }
  }
  // After the jobs: a task's end updates the row its submission wrote.
  for (const TaskEnd& e : pending.task_ends) {
    if (!ends.count(e.task)) (void)history_->RecordTaskEnd(run_id_, e);
  }
}

void RunRecorder::StartFlushing(std::function<void()> before,
                                std::function<void()> after) {
  if (!history_) return;
  before_flush_ = std::move(before);
  after_flush_ = std::move(after);
  ScheduleFlush();
}

void RunRecorder::ScheduleFlush() {
  flush_timer_ = clock_->After(kFlushPeriod, [this] {
    if (before_flush_) before_flush_();
    if (Status s = history_->Flush(); !s.ok()) WarnHistory(s);
    if (after_flush_) after_flush_();
    ScheduleFlush();
  });
}

void RunRecorder::StopFlushing() {
  if (flush_timer_) flush_timer_->Cancel();
}

Status RunRecorder::EndRun(RunStatus status) {
  if (!history_) return Status::Ok();
  return history_->EndRun(run_id_, status, clock_->Now());
}

void RunRecorder::ReportRunEnded(Mutex* mu, RunStatus status) {
  if (observers_.empty()) return;
  MutexLock lock(mu);
  observers_.OnRunEnded(clock_->Now(), status);
}

void RunRecorder::WarnHistory(const Status& why) const {
  Sayf(messages_, MessageKind::kWarning, "gsrt: warning: history: %s\n",
       why.message().c_str());
}

}  // namespace gs
