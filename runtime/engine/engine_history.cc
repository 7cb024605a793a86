// The engine's side of the history (runtime/history/history.h): what
// earlier runs teach this one at Start, and what this run records. Only
// the engine writes the history: adapters report what they learn (queue
// waits) and the engine records it. Writes happen on the engine thread,
// outside the engine mutex, in batched transactions flushed every second.
#include <cstdio>

#include "runtime/engine/engine.h"
#include "runtime/engine/engine_hosts.h"
#include "runtime/history/history.h"

namespace gs {

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
      LearnFromHistory(**history);
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

void Engine::LearnFromHistory(History& history) {
  // Predictions start from what earlier runs measured.
  if (auto samples = history.LoadExecTimes(20); samples.ok()) {
    predictor_->Seed(*samples);
  }
  // Replication orders hosts by the success rates of earlier runs too.
  for (auto& h : hosts_) {
    if (auto r = history.LoadJobSuccess(h->name); r.ok()) {
      h->jobs_ok = r->first;
      h->jobs_finished = r->second;
      jobs_ok_ += r->first;
      jobs_submitted_ += r->second;  // earlier runs' jobs have all ended
    }
  }
  // Volatile policies start from the availability checks and the host
  // losses of earlier runs.
  if (LearnedAvailability* availability = hosts_.availability()) {
    for (HostId h = 0; h < hosts_.size(); ++h) {
      if (auto r = history.LoadHostReliability(hosts_[h]->name); r.ok())
        availability->Seed(h, r->attempts, r->not_answered, r->distrust);
    }
  }
  // grank ranks hosts by the reliability the history accumulated.
  if (!scheduler_.policy().needs().reliability) return;
  std::vector<HostFacts> facts;
  for (const auto& h : hosts_) {
    HostFacts f;
    f.name = h->name;
    if (auto r = history.LoadHostReliability(h->name); r.ok()) {
      f.attempts = r->attempts;
      f.not_answered = r->not_answered;
      f.distrust = r->distrust;
    }
    facts.push_back(f);
  }
  scheduler_.mutable_policy()->SetReliability(std::move(facts));
}

void Engine::ScheduleHistoryFlush() {
  flush_timer_ = clock_->After(1.0, [this] {
    // Batch jobs just queued are committed within a second, like the
    // journal: a master killed later finds them (engine_adopt.cc).
    if (journal_) RecordQueuedJobs();
    Status s = history_->Flush();
    if (!s.ok())
      std::fprintf(stderr, "gsrt: warning: history: %s\n", s.message().c_str());
    // Even when the commit failed: disk use stays bounded, and a resume
    // that misses entries only runs more (it recomputes what is gone).
    if (journal_) DeleteCollectedData();
    ScheduleHistoryFlush();
  });
}

void Engine::RecordJobLocked(const JobEntry& job, HostId host,
                             const JobReport& report) {
  if (!WatchedLocked()) return;
  JobSpec spec;  // what the record needs of the job
  spec.id = report.id;
  spec.task = job.task;
  spec.operation = ops_[graph_.task(job.task).op].name;
  JobRecord rec = JobRecordFromReport(run_id_, spec, hosts_[host]->name, report,
                                      job.replica);
  if (rec.submitted == 0) rec.submitted = job.submitted;
  observers_.OnJobEnded(rec);
  if (history_) unrecorded_.jobs.push_back(std::move(rec));
}

void Engine::RecordPending() {
  Unrecorded pending;
  {
    MutexLock lock(&mu_);
    std::swap(pending, unrecorded_);
  }
  if (!history_) return;
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
  for (const HostFailure& f : pending.failures) {
    (void)history_->RecordHostFailure(f);
  }
  for (const HostCheck& c : pending.checks) (void)history_->RecordHostCheck(c);
  for (const TaskRecord& t : pending.tasks)
    (void)history_->RecordTask(run_id_, t);
  for (const RunEvent& e : pending.events) {
    (void)history_->RecordRunEvent(run_id_, e);
  }
  for (const JobRecord& r : pending.jobs) {
    Status s = history_->RecordJob(r);
    if (!s.ok()) {
      std::fprintf(stderr, "gsrt: warning: history: %s\n", s.message().c_str());
      break;
    }
  }
  // After the jobs: a task's end updates the row its submission wrote.
  for (const TaskEnd& e : pending.task_ends) {
    (void)history_->RecordTaskEnd(run_id_, e);
  }
  if (journal_) {
    RecordQueuedJobs();
    ForgetQueuedJobs(false);
    WriteJournal();
  }
}

}  // namespace gs
