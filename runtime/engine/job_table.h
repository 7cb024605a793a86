// The jobs out: each job's entry by id, the same jobs as one array that a
// scheduling round walks, and the jobs each task has out (more than one
// when it is replicated); and how many jobs were submitted and succeeded. Owned
// by the Engine; not locked by itself: every call is made with the engine's
// mutex held (Engine::jobs_ is guarded by it), from the engine thread or the
// master's.
#ifndef GSRT_RUNTIME_ENGINE_JOB_TABLE_H_
#define GSRT_RUNTIME_ENGINE_JOB_TABLE_H_

#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "runtime/base/clock.h"
#include "runtime/graph/task_graph.h"
#include "runtime/jobs/job.h"
#include "runtime/sched/scheduler.h"

namespace gs {

struct JobEntry {
  TaskId task;
  HostId host;
  Seconds predicted_end;
  Seconds submitted;
  uint32_t attempt;
  bool replica = false;  // a copy of a task already running elsewhere
  // Where a replica on a host sharing the master's files writes its
  // outputs (dest -> final path), moved into place if it wins.
  std::vector<std::pair<std::string, std::string>> replica_outputs;
  // What the job holds (its operation's Need), kept here so a round does
  // not look every running job's task up again.
  Need need;
  // An MPI gang's other hosts (gang_choice.h): each holds `need` there
  // too, for as long as the job runs.
  std::vector<HostId> gang_hosts;
  uint32_t running_index = 0;  // in JobTable::running(); the table's
};

class JobTable {
 public:
  using Map = std::unordered_map<JobId, JobEntry>;
  // A job as a round reads it: walking the map's nodes after every job's
  // end cost a cache miss per running job.
  struct Running {
    JobId id;
    HostId host;
    Seconds predicted_end;
    Need need;
  };

  // Books job `id` of task `entry.task` (one more submitted).
  void Add(JobId id, JobEntry entry);
  // Takes job `id` out into `job`; false when it is not out. `others`: the
  // task's jobs still out.
  bool Take(JobId id, JobEntry* job, std::vector<JobId>* others);

  const JobEntry& at(JobId id) const { return jobs_.at(id); }
  // Null when job `id` is not out.
  const JobEntry* Find(JobId id) const {
    auto it = jobs_.find(id);
    return it == jobs_.end() ? nullptr : &it->second;
  }
  size_t size() const { return jobs_.size(); }
  bool empty() const { return jobs_.empty(); }
  Map::const_iterator begin() const { return jobs_.begin(); }
  Map::const_iterator end() const { return jobs_.end(); }
  const std::vector<Running>& running() const { return running_; }
  // What gang jobs hold on their other hosts: one entry per host, `id`
  // the job (which runs on its own `host` as well).
  const std::vector<Running>& gang_holds() const { return gang_holds_; }
  // The tasks with jobs out, and their jobs.
  const std::unordered_map<TaskId, std::vector<JobId>>& instances() const {
    return instances_;
  }

  // WQDR-FT's success rate SR = ok / submitted, over this run's jobs and
  // the earlier runs' (all ended) that AddEarlier counts.
  void CountOk() { ++ok_; }
  void AddEarlier(uint64_t ok, uint64_t submitted) {
    ok_ += ok;
    submitted_ += submitted;
  }
  uint64_t ok() const { return ok_; }
  uint64_t submitted() const { return submitted_; }

 private:
  Map jobs_;
  std::vector<Running> running_;  // the jobs of jobs_, in one array
  std::vector<Running> gang_holds_;
  std::unordered_map<TaskId, std::vector<JobId>> instances_;
  uint64_t ok_ = 0;
  uint64_t submitted_ = 0;
};

}  // namespace gs

#endif  // GSRT_RUNTIME_ENGINE_JOB_TABLE_H_
