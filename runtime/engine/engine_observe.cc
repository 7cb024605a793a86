// What the engine tells its observers (runtime/observe/run_observer.h) and
// the history's run_tasks/run_events tables: the same facts, reported once
// from here. Called with the engine mutex held (except at the start and the
// end of the run), which also serialises the observers' calls.
#include <algorithm>

#include "runtime/engine/engine.h"
#include "runtime/engine/engine_hosts.h"

namespace gs {

void Engine::ReportRunStarted() {
  for (const auto& o : options_.observers) observers_.Add(o);
  if (observers_.empty()) return;
  std::vector<std::string> names;
  for (const auto& h : hosts_) names.push_back(h->name);
  MutexLock lock(&mu_);
  observers_.OnRunStarted(started_, names);
}

void Engine::ReportTaskSubmittedLocked(TaskId t) {
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
  if (history_) unrecorded_.tasks.push_back(std::move(rec));
}

void Engine::ReportJobStartLocked(JobId job, TaskId t, HostId h, bool replica) {
  JobStart start{
      job,           t,      ops_[graph_.task(t).op].name, hosts_[h]->name,
      clock_->Now(), replica};
  observers_.OnJobStarted(start);
  if (!replica) return;
  RunEvent e{"replica", start.time};
  e.host = start.host;
  e.task = t;
  e.detail = "job " + std::to_string(job);
  ReportEventLocked(std::move(e));
}

void Engine::ReportEventLocked(RunEvent event) {
  observers_.OnEvent(event);
  if (history_) unrecorded_.events.push_back(std::move(event));
}

void Engine::ReportTaskEndLocked(TaskId t, const char* state) {
  TaskEnd end{t, state, clock_->Now()};
  observers_.OnTaskEnded(end);
  if (history_) unrecorded_.task_ends.push_back(std::move(end));
}

void Engine::ReportRunEnded(RunStatus status) {
  if (observers_.empty()) return;
  MutexLock lock(&mu_);
  observers_.OnRunEnded(clock_->Now(), status);
}

}  // namespace gs
