#include "runtime/observe/run_report.h"

#include <algorithm>
#include <limits>
#include <map>
#include <unordered_map>

namespace gs {

namespace {

Seconds RunTime(const JobRecord& j) {
  if (j.started <= 0 || j.ended <= 0) return 0;
  return std::max<Seconds>(0, j.ended - j.started);
}

// Most attempts of one host running at the same moment.
int MostAtOnce(std::vector<std::pair<Seconds, int>> edges) {
  // Ends sort before starts at the same time: back-to-back is not overlap.
  std::sort(edges.begin(), edges.end());
  int now = 0, most = 0;
  for (const auto& [t, delta] : edges) {
    now += delta;
    most = std::max(most, now);
  }
  return most;
}

std::vector<HostUse> Hosts(const std::vector<JobRecord>& jobs, Seconds span,
                           const std::map<std::string, int>& slots) {
  std::map<std::string, HostUse> by_host;
  std::map<std::string, std::vector<std::pair<Seconds, int>>> edges;
  for (const JobRecord& j : jobs) {
    HostUse& h = by_host[j.host];
    h.host = j.host;
    ++h.jobs;
    if (j.outcome == OutcomeClass::kOk) ++h.ok;
    Seconds t = RunTime(j);
    h.busy += t;
    if (t > 0) {
      edges[j.host].push_back({j.started, +1});
      edges[j.host].push_back({j.ended, -1});
    }
  }
  std::vector<HostUse> out;
  for (auto& [name, h] : by_host) {
    auto known = slots.find(name);
    h.slots = known != slots.end() && known->second > 0
                  ? known->second
                  : MostAtOnce(edges[name]);
    if (h.slots > 0 && span > 0) h.utilization = h.busy / (h.slots * span);
    out.push_back(h);
  }
  return out;
}

std::vector<OperationUse> Operations(const std::vector<JobRecord>& jobs) {
  std::map<std::string, OperationUse> by_op;
  for (const JobRecord& j : jobs) {
    OperationUse& o = by_op[j.operation];
    o.operation = j.operation;
    ++o.jobs;
    if (j.outcome != OutcomeClass::kOk) continue;
    ++o.ok;
    o.total += RunTime(j);
    o.longest = std::max(o.longest, RunTime(j));
  }
  std::vector<OperationUse> out;
  for (auto& [name, o] : by_op) {
    if (o.ok > 0) o.mean = o.total / o.ok;
    out.push_back(o);
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const OperationUse& a, const OperationUse& b) {
                     return a.mean > b.mean;
                   });
  return out;
}

}  // namespace

CriticalPath FindCriticalPath(const std::vector<StoredTask>& tasks,
                              const std::vector<JobRecord>& jobs) {
  std::unordered_map<TaskId, Seconds> cost;
  for (const JobRecord& j : jobs) {
    if (j.outcome == OutcomeClass::kOk && !cost.count(j.task)) {
      cost[j.task] = RunTime(j);
    }
  }
  // A task depends only on tasks submitted before it: id order is a
  // topological order.
  std::vector<const StoredTask*> order;
  for (const StoredTask& t : tasks) order.push_back(&t);
  std::sort(order.begin(), order.end(),
            [](const StoredTask* a, const StoredTask* b) {
              return a->record.task < b->record.task;
            });
  std::unordered_map<TaskId, std::pair<Seconds, TaskId>> best;  // len, prev
  constexpr TaskId kNone = std::numeric_limits<TaskId>::max();
  CriticalPath path;
  TaskId last = kNone;
  for (const StoredTask* t : order) {
    auto c = cost.find(t->record.task);
    if (c == cost.end()) continue;  // never ran here (reused, failed)
    std::pair<Seconds, TaskId> b{c->second, kNone};
    for (TaskId d : t->record.depends_on) {
      auto p = best.find(d);
      if (p != best.end() && p->second.first + c->second > b.first) {
        b = {p->second.first + c->second, d};
      }
    }
    best[t->record.task] = b;
    if (last == kNone || b.first > path.length) {
      path.length = b.first;
      last = t->record.task;
    }
  }
  for (TaskId t = last; t != kNone; t = best[t].second) {
    path.tasks.push_back(t);
  }
  std::reverse(path.tasks.begin(), path.tasks.end());
  return path;
}

RunReport BuildRunReport(const std::vector<StoredTask>& tasks,
                         const std::vector<JobRecord>& jobs,
                         const std::vector<RunEvent>& events,
                         const std::map<std::string, int>& slots) {
  RunReport r;
  Seconds first = 0, last = 0;
  auto widen = [&](Seconds t) {
    if (t <= 0) return;
    if (first == 0 || t < first) first = t;
    last = std::max(last, t);
  };
  for (const StoredTask& t : tasks) {
    ++r.tasks;
    r.done += t.state == "done" || t.state == "reused";
    r.reused += t.state == "reused";
    r.failed += t.state == "failed";
    r.futile += t.state == "futile";
    r.cancelled += t.state == "cancelled";
    widen(t.record.submitted);
    widen(t.ended);
  }
  for (const JobRecord& j : jobs) {
    widen(j.submitted);
    widen(j.ended);
  }
  r.span = last - first;
  r.jobs = static_cast<int64_t>(jobs.size());
  r.hosts = Hosts(jobs, r.span, slots);
  r.operations = Operations(jobs);
  r.critical = FindCriticalPath(tasks, jobs);
  for (const RunEvent& e : events) {
    if (e.kind != "transfer") continue;
    ++r.transfers;
    r.staging += e.duration;
    r.staged_bytes += e.bytes;
  }
  // A failed task's last attempt says why.
  std::unordered_map<TaskId, const JobRecord*> last_attempt;
  std::unordered_map<TaskId, int> attempts;
  for (const JobRecord& j : jobs) {
    last_attempt[j.task] = &j;
    if (!j.replica) ++attempts[j.task];
  }
  for (const StoredTask& t : tasks) {
    if (t.state != "failed") continue;
    FailedTask f;
    f.task = t.record.task;
    f.operation = t.record.operation;
    f.attempts = attempts[f.task];
    if (auto it = last_attempt.find(f.task); it != last_attempt.end()) {
      f.host = it->second->host;
      f.error = it->second->error;
      f.log_dir = it->second->log_dir;
    }
    r.failures.push_back(std::move(f));
  }
  return r;
}

}  // namespace gs
