// The stall watch on the engine's side (stall_monitor.h watches): what a
// look asks of the engine (StallLink), under mu_.
#include <algorithm>
#include <utility>

#include "runtime/engine/engine.h"
#include "runtime/engine/engine_hosts.h"

namespace gs {

bool Engine::StallLink::Stopping() const { return e_.loop_.stopping(e_.mu_); }

size_t Engine::StallLink::NumReady() const {
  return e_.dispatcher_.scheduler().num_ready();
}

std::vector<std::pair<TaskId, std::string>> Engine::StallLink::ReadyTasks()
    const {
  std::vector<std::pair<TaskId, std::string>> ready;
  for (const ReadyTask& r : e_.dispatcher_.scheduler().ready()) {
    // A GPU need is what most often keeps a task off every host.
    std::string needs =
        r.need.gpus > 0 ? ", " + std::to_string(r.need.gpus) + " GPUs" : "";
    // So is a gang that no allocation can hold whole now.
    if (const int nodes = e_.dispatcher_.GangNodes(r.op); nodes > 0) {
      needs += ", a gang of " + std::to_string(nodes) + " nodes of " +
               std::to_string(r.need.cores) + " cores";
    }
    ready.emplace_back(r.id, "task " + std::to_string(r.id) + " (" +
                                 e_.program_.ops[r.op].name + needs + ")");
  }
  return ready;
}

void Engine::StallLink::HostStates(std::vector<HostState>* states) const {
  e_.hosts_.HostStates(states);
}

size_t Engine::StallLink::NumJobs() const { return e_.jobs_.size(); }

size_t Engine::StallLink::TransfersInFlight() const {
  return e_.mover_.places().transfers_in_flight();
}

size_t Engine::StallLink::PendingRetries() const {
  return e_.dispatcher_.pending_retries();
}

bool Engine::StallLink::AdaptersOfferSlots() const {
  return e_.hosts_.AdaptersOfferSlots();
}

void Engine::StallLink::Wake() { e_.WakeLocked(); }

std::vector<QuietJob> Engine::StallLink::Jobs(Seconds now) const {
  std::vector<std::pair<JobId, const JobEntry*>> out;
  for (const auto& [id, job] : e_.jobs_) out.emplace_back(id, &job);
  std::sort(out.begin(), out.end());  // oldest job first
  std::vector<QuietJob> jobs;
  for (const auto& [id, job] : out) {
    jobs.push_back(
        {"task " + std::to_string(job->task) + " (" +
             e_.program_.ops[e_.program_.graph.task(job->task).op].name + ")",
         e_.hosts_[job->host]->name, now - job->submitted});
  }
  return jobs;
}

std::vector<QuietHost> Engine::StallLink::Hosts(Seconds now) const {
  std::vector<QuietHost> hosts;
  for (HostId h = 0; h < e_.hosts_.size(); ++h) {
    const HostEntry& host = *e_.hosts_[h];
    const Seconds heard = host.adapter->last_heard();
    hosts.push_back({host.name,
                     std::string(HealthStateName(e_.hosts_.HealthOf(h))),
                     host.usable, heard >= 0 ? now - heard : -1,
                     host.usable ? "" : host.reconnect.error});
  }
  return hosts;
}

void Engine::StallLink::FailStalled(const std::vector<TaskId>& tasks) {
  for (TaskId t : tasks) {
    // A task an earlier one's failure made futile is no longer ready.
    if (e_.program_.graph.task(t).state != TaskState::kReady) continue;
    e_.FailTaskLocked(t, "not placed: the run stalled (see below)", "");
  }
  e_.dispatcher_.scheduler().RemoveIf([this](TaskId id) {
    e_.mu_.AssertHeld();  // called right here
    return e_.program_.graph.task(id).state != TaskState::kReady;
  });
}

void Engine::StallLink::NotifyWaiters() { e_.waits_.gate().notify_all(); }

void Engine::StallLink::Quiet(Seconds now, const std::string& report) {
  if (!e_.recorder_.watched()) return;
  RunEvent e{"quiet", now};
  e.detail = report;
  e_.recorder_.ReportEvent(e_.mu_, std::move(e));
}

}  // namespace gs
