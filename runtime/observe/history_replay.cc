#include "runtime/observe/history_replay.h"

#include <algorithm>
#include <set>

namespace gs {

namespace {

Seconds EndOf(const JobRecord& j) {
  if (j.ended > 0) return j.ended;
  return j.started > 0 ? j.started : j.submitted;
}

RunStatus ParseRunStatus(const std::string& s) {
  if (s == "ok") return RunStatus::kOk;
  if (s == "failed") return RunStatus::kFailed;
  if (s == "cancelled") return RunStatus::kCancelled;
  return RunStatus::kRunning;
}

}  // namespace

Status ReplayRun(History& history, RunId run, RunObserver* observer) {
  auto row = history.LoadRun(run);
  if (!row.ok()) return row.status();
  auto tasks = history.LoadTasks(run);
  if (!tasks.ok()) return tasks.status();
  auto jobs = history.JobsForRun(run);
  if (!jobs.ok()) return jobs.status();
  auto events = history.LoadRunEvents(run);
  if (!events.ok()) return events.status();

  std::stable_sort(jobs->begin(), jobs->end(),
                   [](const JobRecord& a, const JobRecord& b) {
                     return EndOf(a) < EndOf(b);
                   });
  std::stable_sort(events->begin(), events->end(),
                   [](const RunEvent& a, const RunEvent& b) {
                     return a.time + a.duration < b.time + b.duration;
                   });
  // The run's hosts as they were first used (the history keeps no list of
  // a run's hosts).
  std::vector<std::string> hosts;
  std::set<std::string> seen;
  for (const JobRecord& j : *jobs) {
    if (seen.insert(j.host).second) hosts.push_back(j.host);
  }
  observer->OnRunStarted(row->started, hosts);
  for (const StoredTask& t : *tasks) observer->OnTaskSubmitted(t.record);
  size_t e = 0;
  for (const JobRecord& j : *jobs) {
    while (e < events->size() &&
           (*events)[e].time + (*events)[e].duration <= EndOf(j)) {
      observer->OnEvent((*events)[e++]);
    }
    observer->OnJobEnded(j);
  }
  for (; e < events->size(); ++e) observer->OnEvent((*events)[e]);
  for (const StoredTask& t : *tasks) {
    if (t.state != "submitted")
      observer->OnTaskEnded({t.record.task, t.state, t.ended});
  }
  observer->OnRunEnded(row->ended, ParseRunStatus(row->status));
  return Status::Ok();
}

}  // namespace gs
