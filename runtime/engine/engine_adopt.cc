// Batch jobs across a master crash (docs/design.md, "Resume"): the engine
// thread's side of ResumeJournal's take-over of an interrupted run's batch
// jobs. What the adapters queue is recorded in the history (table
// batch_jobs) with its task's signature and output files; what no task
// takes over (pilots, jobs of tasks placed on another host or never
// submitted) is cancelled through the adapters.
#include <map>

#include "runtime/engine/engine.h"
#include "runtime/engine/engine_hosts.h"
#include "runtime/engine/resume_journal.h"

namespace gs {

bool Engine::RecordQueuedJobs(bool commit) {
  std::vector<QueuedJobEntry> rows;
  for (auto& h : hosts_) {
    if (!h->adapter) continue;
    for (QueuedJob& j : h->adapter->TakeQueuedJobs()) {
      QueuedJobEntry e;
      e.run = recorder_.run_id();
      e.host = h->name;
      e.job = std::move(j);
      rows.push_back(std::move(e));
    }
  }
  if (rows.empty()) return false;
  memory_.journal->WriteQueuedJobs(mu_, std::move(rows), commit);
  return true;
}

void Engine::RecordSubmissionsOfAdapters() {
  if (!memory_.journal) return;
  for (auto& h : hosts_) {
    if (!h->adapter) continue;
    h->adapter->RecordSubmissionsWith(
        [this, name = h->name](const std::vector<QueuedJob>& jobs) {
          memory_.journal->RecordSubmissions(mu_, name, jobs);
        });
  }
}

void Engine::ForgetQueuedJobs(bool all) {
  std::vector<QueuedJobEntry> forget;
  {
    MutexLock lock(&mu_);
    forget = memory_.journal->TakeJobsToForget(all);
  }
  if (forget.empty()) return;
  std::map<std::string, std::vector<QueuedJob>> by_host;
  for (QueuedJobEntry& e : forget) by_host[e.host].push_back(std::move(e.job));
  for (auto& [name, jobs] : by_host) {
    for (auto& h : hosts_) {
      if (h->name == name && h->adapter) {
        h->adapter->Forget(jobs);
        break;
      }
    }
  }
}

}  // namespace gs
