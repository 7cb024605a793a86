// Proactive policies (Policy::Reconsider): every period the policy sees the
// running jobs and may ask for some to be stopped; their Cancelled reports
// put the tasks back in the ready queue, where the policy places them again.
#include <algorithm>

#include "runtime/engine/engine.h"
#include "runtime/engine/engine_hosts.h"

namespace gs {

bool Engine::Reconsider() {
  std::vector<std::pair<HostId, JobId>> stop;
  {
    MutexLock lock(&mu_);
    if (loop_.stopping(mu_)) return false;
    if (!jobs_.empty()) {
      std::vector<HostState> states;
      hosts_.HostStates(&states);
      // In job id order, so the policy sees the same list every run.
      std::vector<std::pair<JobId, const JobEntry*>> jobs;
      for (const auto& [id, job] : jobs_) jobs.push_back({id, &job});
      std::sort(jobs.begin(), jobs.end());
      std::vector<Placement> running;
      for (auto& [id, job] : jobs) {
        states[job->host].AddBusy(job->predicted_end, job->need);
        running.push_back({job->task, job->host, job->predicted_end});
      }
      SchedulingInput in{loop_.clock().Now(), &states,
                         &dispatcher_.predictor()};
      std::vector<TaskId> tasks = dispatcher_.policy().Reconsider(running, in);
      for (auto& [id, job] : jobs) {
        if (std::find(tasks.begin(), tasks.end(), job->task) != tasks.end())
          stop.push_back({job->host, id});
      }
    }
  }
  for (auto& [host, id] : stop) hosts_[host]->adapter->Cancel(id);
  return true;
}

}  // namespace gs
