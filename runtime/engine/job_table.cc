#include "runtime/engine/job_table.h"

#include <algorithm>

namespace gs {

void JobTable::Add(JobId id, JobEntry entry) {
  const TaskId task = entry.task;
  entry.running_index = static_cast<uint32_t>(running_.size());
  running_.push_back({id, entry.host, entry.predicted_end, entry.need});
  for (HostId h : entry.gang_hosts) {
    gang_holds_.push_back({id, h, entry.predicted_end, entry.need});
  }
  jobs_.emplace(id, std::move(entry));
  instances_[task].push_back(id);
  ++submitted_;
}

bool JobTable::Take(JobId id, JobEntry* job, std::vector<JobId>* others) {
  auto it = jobs_.find(id);
  if (it == jobs_.end()) return false;
  *job = std::move(it->second);
  const uint32_t at = job->running_index;
  jobs_.erase(it);
  // The last job takes the taken one's place.
  if (at + 1 != running_.size()) {
    running_[at] = running_.back();
    jobs_.at(running_[at].id).running_index = at;
  }
  running_.pop_back();
  // Gangs are few: the holds are looked through only when one ends.
  if (!job->gang_hosts.empty()) {
    std::erase_if(gang_holds_, [id](const Running& r) { return r.id == id; });
  }
  others->clear();
  auto in = instances_.find(job->task);
  if (in == instances_.end()) return true;
  std::erase(in->second, id);
  *others = in->second;
  if (others->empty()) instances_.erase(in);
  return true;
}

}  // namespace gs
