// Batch jobs across a master crash (docs/design.md, "Resume"). Every batch
// job an adapter queues is recorded in the history (table batch_jobs) with
// its task's signature and output files, in the same batched writes as the
// journal. A run resuming an interrupted one loads those of the jobs whose
// tasks the journal does not hold as finished; when this run dispatches
// the same task (same signature, same output files) to the same host, the
// adapter takes the job over (Adapter::Adopt) instead of running the task
// again: the job writes the very files this run expects, since the output
// names match. What no task takes over (pilots, jobs of tasks placed on
// another host or never submitted) is cancelled.
#include <cstdio>
#include <map>

#include "runtime/engine/engine.h"
#include "runtime/engine/engine_hosts.h"
#include "runtime/engine/engine_journal.h"
#include "runtime/history/history.h"

namespace gs {

std::vector<std::string> Engine::OutputFileNamesLocked(TaskId t) const {
  const Task& task = graph_.task(t);
  const FileAccess* acc = graph_.accesses(t);
  std::vector<std::string> outputs;
  for (uint32_t i = 0; i < task.num_files; ++i) {
    if (acc[i].out != kNoVersion)
      outputs.push_back(data_.VersionFileName(acc[i].out));
  }
  return outputs;
}

void Engine::LoadQueuedJobs(RunId run) {
  auto entries = history_->LoadQueuedJobs(run);
  if (!entries.ok()) {
    std::fprintf(
        stderr, "gsrt: warning: cannot read the batch jobs of run %lld: %s\n",
        static_cast<long long>(run), entries.status().message().c_str());
    return;
  }
  size_t open = 0;
  for (QueuedJobEntry& e : *entries) {
    if (e.signature.empty()) {  // a pilot: its agent serves nobody now
      journal_->forget.push_back(std::move(e));
      continue;
    }
    // Finished and journaled: nothing to take over (its record was read);
    // forgotten, so that its batch directory goes with this run (the
    // cancel of a job that left the queue does nothing).
    if (journal_->index.Find(e.signature, e.outputs) != nullptr) {
      journal_->forget.push_back(std::move(e));
      continue;
    }
    std::string key = QueuedJobKey(e.signature, e.outputs);
    // Runs come newest first: a newer run's job (or its take-over) wins.
    if (journal_->queued.count(key)) continue;
    journal_->queued.emplace(std::move(key), std::move(e));
    ++open;
  }
  if (open > 0) {
    std::fprintf(stderr,
                 "gsrt: resuming: %zu batch jobs of run %lld may still be "
                 "queued or running; they are taken over, not run again\n",
                 open, static_cast<long long>(run));
  }
}

std::optional<QueuedJob> Engine::TakeOverLocked(TaskId t, HostId h) {
  auto it = journal_->queued.find(
      QueuedJobKey(SignatureLocked(t), OutputFileNamesLocked(t)));
  if (it == journal_->queued.end()) return std::nullopt;
  QueuedJobEntry e = std::move(it->second);
  journal_->queued.erase(it);
  if (e.host != hosts_[h]->name) {
    // Placed elsewhere this time: the old job must not write the same
    // files as well.
    journal_->forget.push_back(std::move(e));
    return std::nullopt;
  }
  ++stats_.adopted;
  return std::move(e.job);
}

bool Engine::RecordQueuedJobs(bool commit) {
  std::vector<QueuedJobEntry> rows;
  for (auto& h : hosts_) {
    if (!h->adapter) continue;
    for (QueuedJob& j : h->adapter->TakeQueuedJobs()) {
      QueuedJobEntry e;
      e.run = run_id_;
      e.host = h->name;
      e.job = std::move(j);
      rows.push_back(std::move(e));
    }
  }
  if (rows.empty()) return false;
  WriteQueuedJobs(std::move(rows), commit);
  return true;
}

void Engine::RecordSubmissionsOfAdapters() {
  if (!journal_) return;
  for (auto& h : hosts_) {
    if (!h->adapter) continue;
    h->adapter->RecordSubmissionsWith(
        [this, name = h->name](const std::vector<QueuedJob>& jobs) {
          RecordSubmissions(name, jobs);
        });
  }
}

void Engine::RecordSubmissions(const std::string& host,
                               const std::vector<QueuedJob>& jobs) {
  std::vector<QueuedJobEntry> rows;
  for (const QueuedJob& j : jobs) {
    QueuedJobEntry e;
    e.run = run_id_;
    e.host = host;
    e.job = j;
    rows.push_back(std::move(e));
  }
  // Committed before the adapter submits: that is the point.
  WriteQueuedJobs(std::move(rows), /*commit=*/true);
}

void Engine::WriteQueuedJobs(std::vector<QueuedJobEntry> rows, bool commit) {
  {
    MutexLock lock(&mu_);
    for (QueuedJobEntry& e : rows) {
      if (e.job.job == 0 || e.job.task >= graph_.num_tasks()) continue;
      e.signature = SignatureLocked(e.job.task);
      e.outputs = OutputFileNamesLocked(e.job.task);
    }
  }
  for (const QueuedJobEntry& e : rows) {
    if (Status s = history_->RecordQueuedJob(e); !s.ok()) {
      std::fprintf(stderr, "gsrt: warning: history: %s\n", s.message().c_str());
      return;
    }
  }
  if (commit) (void)history_->Flush();
}

void Engine::ForgetQueuedJobs(bool all) {
  std::vector<QueuedJobEntry> forget;
  {
    MutexLock lock(&mu_);
    forget.swap(journal_->forget);
    if (all) {
      for (auto& [key, e] : journal_->queued) forget.push_back(std::move(e));
      journal_->queued.clear();
    }
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
