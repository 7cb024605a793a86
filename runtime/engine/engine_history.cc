// The engine's side of the history, which the recorder (run_recorder.h)
// owns: what earlier runs teach this one at Start, and the engine thread's
// writes of what this run recorded. Only the engine writes the history:
// adapters report what they learn (queue waits) and the engine records it.
// Writes happen on the engine thread, outside the engine mutex, in batched
// transactions written and flushed every RunRecorder::kFlushPeriod.
#include "runtime/engine/engine.h"
#include "runtime/engine/engine_hosts.h"
#include "runtime/engine/resume_journal.h"
#include "runtime/history/history.h"

namespace gs {

void Engine::LearnFromHistory() {
  const bool grank = dispatcher_.scheduler().policy().needs().reliability;
  HistoryLessons lessons =
      recorder_.ReadLessons(hosts_.availability() != nullptr || grank);
  // Predictions start from what earlier runs measured.
  if (lessons.exec_times) dispatcher_.predictor().Seed(*lessons.exec_times);
  // Replication orders hosts by the success rates of earlier runs too.
  for (HostId h = 0; h < hosts_.size(); ++h) {
    if (const auto& r = lessons.job_success[h]) {
      hosts_[h]->jobs_ok = r->first;
      hosts_[h]->jobs_finished = r->second;
      jobs_.AddEarlier(r->first, r->second);  // their jobs have all ended
    }
  }
  // Volatile policies start from the availability checks and the host
  // losses of earlier runs.
  if (LearnedAvailability* availability = hosts_.availability()) {
    for (HostId h = 0; h < hosts_.size(); ++h) {
      if (const auto& r = lessons.reliability[h])
        availability->Seed(h, r->attempts, r->not_answered, r->distrust);
    }
  }
  // grank ranks hosts by the reliability the history accumulated.
  if (!grank) return;
  std::vector<HostFacts> facts;
  for (HostId h = 0; h < hosts_.size(); ++h) {
    HostFacts f;
    f.name = hosts_[h]->name;
    if (const auto& r = lessons.reliability[h]) {
      f.attempts = r->attempts;
      f.not_answered = r->not_answered;
      f.distrust = r->distrust;
    }
    facts.push_back(f);
  }
  dispatcher_.policy().SetReliability(std::move(facts));
}

void Engine::RecordPending() {
  RunRecorder::Pending pending;
  {
    MutexLock lock(&mu_);
    pending = recorder_.TakePending(mu_);
  }
  if (!recorder_.history()) return;
  for (auto& h : hosts_) {
    if (!h->adapter) continue;
    for (const QueueWaitSample& w : h->adapter->TakeQueueWaits()) {
      QueueWait row;
      row.host = h->name;
      row.partition = w.partition;
      row.submitted = w.submitted;
      row.started = w.started;
      row.nodes = w.nodes;
      row.cores = w.cores;
      row.walltime = w.walltime;
      pending.queue_waits.push_back(std::move(row));
    }
  }
  recorder_.Write(std::move(pending));
  if (memory_.journal) {
    RecordQueuedJobs();
    ForgetQueuedJobs(false);
    memory_.journal->Write(mu_);
  }
}

}  // namespace gs
