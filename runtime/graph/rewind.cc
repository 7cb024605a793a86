#include "runtime/graph/rewind.h"

#include <algorithm>
#include <string>

namespace gs {
namespace {

using State = RewindTask::State;

bool Holds(const RewindVersion& v, HostId host) {
  return std::find(v.copies.begin(), v.copies.end(), host) != v.copies.end();
}

// A copy on a host other than `lost`.
bool Survives(const RewindVersion& v, HostId lost) {
  return std::any_of(v.copies.begin(), v.copies.end(),
                     [lost](HostId h) { return h != lost; });
}

std::string TaskName(size_t t) { return "task " + std::to_string(t); }
std::string VersionName(size_t v) { return "version " + std::to_string(v); }

// Checks the ids and the producer/output agreement that the rest relies on.
Status Validate(const std::vector<RewindTask>& tasks,
                const std::vector<RewindVersion>& versions) {
  std::vector<uint32_t> listed(versions.size(), 0);
  for (size_t t = 0; t < tasks.size(); ++t) {
    const RewindTask& task = tasks[t];
    if (task.state == State::kRunning && task.host == RewindTask::kUnplaced) {
      return Status::InvalidArgument(TaskName(t) +
                                     " is running but has no host");
    }
    for (uint32_t v : task.inputs) {
      if (v >= versions.size()) {
        return Status::InvalidArgument(
            TaskName(t) + " reads " + VersionName(v) +
            ", which does not exist (" + std::to_string(versions.size()) +
            " versions)");
      }
    }
    for (uint32_t v : task.outputs) {
      if (v >= versions.size()) {
        return Status::InvalidArgument(
            TaskName(t) + " writes " + VersionName(v) +
            ", which does not exist (" + std::to_string(versions.size()) +
            " versions)");
      }
      if (versions[v].producer != t) {
        return Status::InvalidArgument(
            TaskName(t) + " writes " + VersionName(v) +
            " but the version names " +
            (versions[v].producer == RewindVersion::kMaster
                 ? std::string("the master")
                 : TaskName(versions[v].producer)) +
            " as its producer");
      }
      ++listed[v];
    }
  }
  for (size_t v = 0; v < versions.size(); ++v) {
    uint32_t p = versions[v].producer;
    if (p == RewindVersion::kMaster) continue;
    if (p >= tasks.size()) {
      return Status::InvalidArgument(VersionName(v) + " names " + TaskName(p) +
                                     " as producer, which does not exist (" +
                                     std::to_string(tasks.size()) + " tasks)");
    }
    if (listed[v] != 1) {
      return Status::InvalidArgument(
          VersionName(v) + " is listed " + std::to_string(listed[v]) +
          " times among the outputs of its producer " + TaskName(p) +
          " (expected once)");
    }
  }
  return Status::Ok();
}

// Consumers of each version in compressed form: readers[begin[v]..begin[v+1]).
struct Readers {
  std::vector<uint32_t> begin;
  std::vector<uint32_t> tasks;
};

Readers BuildReaders(const std::vector<RewindTask>& tasks, size_t n_versions) {
  Readers r;
  r.begin.assign(n_versions + 1, 0);
  for (const RewindTask& t : tasks) {
    for (uint32_t v : t.inputs) ++r.begin[v + 1];
  }
  for (size_t v = 0; v < n_versions; ++v) r.begin[v + 1] += r.begin[v];
  r.tasks.resize(r.begin.back());
  std::vector<uint32_t> next(r.begin.begin(), r.begin.end() - 1);
  for (size_t t = 0; t < tasks.size(); ++t) {
    for (uint32_t v : tasks[t].inputs) {
      r.tasks[next[v]++] = static_cast<uint32_t>(t);
    }
  }
  return r;
}

// Kahn's algorithm over the edges producer -> reader; ties in index order so
// the result is deterministic.
StatusOr<std::vector<uint32_t>> TopologicalOrder(
    const std::vector<RewindTask>& tasks,
    const std::vector<RewindVersion>& versions, const Readers& readers) {
  std::vector<uint32_t> indegree(tasks.size(), 0);
  for (size_t t = 0; t < tasks.size(); ++t) {
    for (uint32_t v : tasks[t].inputs) {
      if (versions[v].producer != RewindVersion::kMaster) ++indegree[t];
    }
  }
  std::vector<uint32_t> order;
  order.reserve(tasks.size());
  for (size_t t = 0; t < tasks.size(); ++t) {
    if (indegree[t] == 0) order.push_back(static_cast<uint32_t>(t));
  }
  for (size_t i = 0; i < order.size(); ++i) {
    for (uint32_t v : tasks[order[i]].outputs) {
      for (uint32_t k = readers.begin[v]; k < readers.begin[v + 1]; ++k) {
        uint32_t c = readers.tasks[k];
        if (--indegree[c] == 0) order.push_back(c);
      }
    }
  }
  if (order.size() != tasks.size()) {
    size_t stuck = 0;
    while (indegree[stuck] == 0) ++stuck;
    return Status::InvalidArgument(
        "the task graph has a cycle: " + TaskName(stuck) +
        " depends, directly or not, on its own output");
  }
  return order;
}

std::vector<uint32_t> LevelsInOrder(const std::vector<RewindTask>& tasks,
                                    const std::vector<RewindVersion>& versions,
                                    const std::vector<uint32_t>& order) {
  std::vector<uint32_t> level(tasks.size(), 0);
  for (uint32_t t : order) {
    for (uint32_t v : tasks[t].inputs) {
      uint32_t p = versions[v].producer;
      if (p != RewindVersion::kMaster) {
        level[t] = std::max(level[t], level[p] + 1);
      }
    }
  }
  return level;
}

}  // namespace

StatusOr<std::vector<uint32_t>> TaskLevels(
    const std::vector<RewindTask>& tasks,
    const std::vector<RewindVersion>& versions) {
  if (Status s = Validate(tasks, versions); !s.ok()) return s;
  Readers readers = BuildReaders(tasks, versions.size());
  StatusOr<std::vector<uint32_t>> order =
      TopologicalOrder(tasks, versions, readers);
  if (!order.ok()) return order.status();
  return LevelsInOrder(tasks, versions, *order);
}

StatusOr<RewindPlan> PlanRewind(const std::vector<RewindTask>& tasks,
                                const std::vector<RewindVersion>& versions,
                                HostId lost, RewindMode mode) {
  if (Status s = Validate(tasks, versions); !s.ok()) return s;
  Readers readers = BuildReaders(tasks, versions.size());
  StatusOr<std::vector<uint32_t>> order =
      TopologicalOrder(tasks, versions, readers);
  if (!order.ok()) return order.status();

  // Whether the results in version v are gone. GTP/r: its producer was placed
  // on the lost host (the paper keeps results where they were computed and
  // ignores other copies). GTP/c/r: no copy is left elsewhere. In both modes
  // a version with no surviving copy at all is gone, which only matters if
  // the data layer moved a result away from its producer's host.
  auto gone = [&](uint32_t v) {
    const RewindVersion& ver = versions[v];
    if (ver.producer == RewindVersion::kMaster) return !Survives(ver, lost);
    if (tasks[ver.producer].state != State::kDone) return false;  // not made
    if (!Survives(ver, lost)) return true;
    return mode == RewindMode::kGtpR && tasks[ver.producer].host == lost;
  };
  // The paper's kappa^d(producer, c) = 1: c finished (and is not rewound),
  // will never run, or is running elsewhere with the input already there.
  std::vector<bool> rewound(tasks.size(), false);
  auto received = [&](uint32_t c, uint32_t v) {
    const RewindTask& t = tasks[c];
    if (rewound[c]) return false;
    switch (t.state) {
      case State::kDone:
      case State::kFailed:
        return true;
      case State::kPending:
        return false;
      case State::kRunning:
        return t.host != lost && Holds(versions[v], t.host);
    }
    return false;
  };

  RewindPlan plan;
  // Reverse topological order: every reader of t's outputs is decided before
  // t, which is what the paper's recursive rule 2 needs.
  for (auto it = order->rbegin(); it != order->rend(); ++it) {
    uint32_t t = *it;
    const RewindTask& task = tasks[t];
    bool rewind = false;
    if (task.state == State::kRunning && task.host == lost) {
      // Its job is lost. In the paper such a task always has a successor
      // that has not received its result (at least the dummy exit), so
      // rule 1 rewinds it; and it has no copy anywhere, so GTP/c/r agrees.
      rewind = true;
      ++plan.rt_interrupted;
    } else if (task.state == State::kDone) {
      for (uint32_t v : task.outputs) {
        if (!gone(v)) continue;
        for (uint32_t k = readers.begin[v]; k < readers.begin[v + 1]; ++k) {
          if (!received(readers.tasks[k], v)) {
            rewind = true;
            break;
          }
        }
        if (rewind) break;
      }
      if (rewind) ++plan.rt_finished;
    }
    if (rewind) {
      rewound[t] = true;
      plan.rewound.push_back(t);
    }
  }

  // Readers that will run (again) with an input that nothing can restore, or
  // that keep running but must wait for a recomputed input.
  std::vector<bool> unrecoverable(versions.size(), false);
  std::vector<bool> stalled(tasks.size(), false);
  for (size_t c = 0; c < tasks.size(); ++c) {
    const RewindTask& task = tasks[c];
    bool runs = rewound[c] || task.state == State::kPending ||
                task.state == State::kRunning;
    if (!runs) continue;
    for (uint32_t v : task.inputs) {
      if (received(static_cast<uint32_t>(c), v) || !gone(v)) continue;
      uint32_t p = versions[v].producer;
      if (p == RewindVersion::kMaster) {
        unrecoverable[v] = true;
      } else if (task.state == State::kRunning && !rewound[c]) {
        stalled[c] = true;
      }
    }
  }
  for (size_t v = 0; v < versions.size(); ++v) {
    if (Holds(versions[v], lost)) plan.dropped.push_back(v);
    if (unrecoverable[v]) plan.unrecoverable.push_back(v);
  }
  for (size_t c = 0; c < tasks.size(); ++c) {
    if (stalled[c]) plan.stalled.push_back(c);
  }

  plan.rt = static_cast<uint32_t>(plan.rewound.size());
  if (!plan.rewound.empty()) {
    std::vector<uint32_t> level = LevelsInOrder(tasks, versions, *order);
    uint32_t lo = level[plan.rewound.front()], hi = lo;
    for (uint32_t t : plan.rewound) {
      lo = std::min(lo, level[t]);
      hi = std::max(hi, level[t]);
    }
    plan.lr = hi - lo + 1;
  }
  return plan;
}

}  // namespace gs
