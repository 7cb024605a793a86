// The stall watchdog on the engine's side (stall_watch.h decides): every
// period the engine looks at its ready queue, its hosts and what moves;
// once the run has been stuck for runtime.stall_timeout seconds, the ready
// tasks fail with a message that names them, the policy and the hosts, so
// the master ends instead of waiting forever. While jobs are out and
// nothing starts or ends, the run is reported instead (quiet_watch.h), and
// a thread of its own watches that the engine thread itself comes back
// (loop_watchdog.h).
#include <algorithm>
#include <cstdio>

#include "runtime/engine/engine.h"
#include "runtime/engine/engine_hosts.h"

namespace gs {

void Engine::StartStallCheck() {
  Seconds bound = options_.stall_timeout;
  // The simulator has its own deadlock check; virtual hosts may wait on
  // purpose for a long virtual time.
  if (bound <= 0 || options_.hooks.virtual_time) return;
  Seconds every = std::clamp(bound / 4, 0.05, 1.0);
  timers_->Every(every, [this] {
    if (loop_watchdog_) loop_watchdog_->Beat();
    CheckStall();
    return true;
  });
}

void Engine::CheckStall() {
  std::string message;
  {
    MutexLock lock(&mu_);
    if (stopping_) return;
    StallLook look;
    look.now = clock_->Now();
    look.ready = scheduler_.num_ready();
    std::vector<HostState> states;
    hosts_.HostStates(&states);
    for (const HostState& s : states) look.free_slots += s.free_slots();
    look.active =
        jobs_.size() + data_.transfers_in_flight() + retry_timers_.size();
    look.moved = stats_.jobs + stats_.done + stats_.failed + stats_.futile;
    // Slots no round has seen (a pilot that connected while every running
    // job still runs): a round places the waiting tasks on them.
    if (look.ready > 0 && hosts_.AdaptersOfferSlots()) WakeLocked();
    const bool out = !jobs_.empty() || data_.transfers_in_flight() > 0;
    if (quiet_.Look(look.now, out, look.moved)) {
      // next_report() has doubled already: the report names the next one.
      message = DescribeQuietLocked(look.now - quiet_.quiet_since());
    }
    if (!stall_.Look(look)) {
      if (!message.empty()) {
        Sayf(console_.messages(), MessageKind::kInfo, "\ngsrt: %s\n",
             message.c_str());
      }
      return;
    }
    message = FailStalledLocked(look.now - stall_.stuck_since(), states);
    finished_cv_.notify_all();
  }
  Sayf(console_.messages(), MessageKind::kError, "\ngsrt: %s\n",
       message.c_str());
}

void Engine::StartLoopWatchdog() {
  if (options_.stall_timeout <= 0 || options_.hooks.virtual_time) return;
  MessageSink* messages = &console_.messages();
  loop_watchdog_ = std::make_unique<LoopWatchdog>(
      options_.stall_timeout, [messages](const std::string& message) {
        // Not under mu_ (the blocked engine thread may hold it): the sink
        // is thread-safe.
        Sayf(*messages, MessageKind::kWarning, "\ngsrt: %s\n", message.c_str());
      });
}

std::string Engine::DescribeQuietLocked(Seconds quiet_for) {
  const Seconds now = clock_->Now();
  std::vector<std::pair<JobId, const JobEntry*>> out;
  for (const auto& [id, job] : jobs_) out.emplace_back(id, &job);
  std::sort(out.begin(), out.end());  // oldest job first
  std::vector<QuietJob> jobs;
  for (const auto& [id, job] : out) {
    jobs.push_back({"task " + std::to_string(job->task) + " (" +
                        ops_[graph_.task(job->task).op].name + ")",
                    hosts_[job->host]->name, now - job->submitted});
  }
  std::vector<QuietHost> hosts;
  for (HostId h = 0; h < hosts_.size(); ++h) {
    const HostEntry& host = *hosts_[h];
    const Seconds heard = host.adapter->last_heard();
    hosts.push_back({host.name,
                     std::string(HealthStateName(hosts_.HealthOf(h))),
                     host.usable, heard >= 0 ? now - heard : -1,
                     host.usable ? "" : host.reconnect_error});
  }
  std::string message = DescribeQuiet(quiet_for, quiet_.next_report(), jobs,
                                      data_.transfers_in_flight(), hosts);
  stats_.notes.push_back(message);
  if (recorder_.watched()) {
    RunEvent e{"quiet", now};
    e.detail = message;
    recorder_.ReportEvent(mu_, std::move(e));
  }
  return message;
}

std::string Engine::FailStalledLocked(Seconds stuck_for,
                                      const std::vector<HostState>& states) {
  std::vector<TaskId> ready;
  std::vector<std::string> waiting;
  for (const ReadyTask& r : scheduler_.ready()) {
    ready.push_back(r.id);
    waiting.push_back("task " + std::to_string(r.id) + " (" + ops_[r.op].name +
                      ")");
  }
  std::vector<StalledHost> hosts;
  for (HostId h = 0; h < hosts_.size(); ++h) {
    hosts.push_back({hosts_[h]->name,
                     std::string(HealthStateName(hosts_.HealthOf(h))),
                     hosts_[h]->usable, states[h].free_slots()});
  }
  std::string message =
      DescribeStall(options_.policy, stuck_for, waiting, hosts);
  for (TaskId t : ready) {
    // A task an earlier one's failure made futile is no longer ready.
    if (graph_.task(t).state != TaskState::kReady) continue;
    FailTaskLocked(t, "not placed: the run stalled (see below)", "");
  }
  scheduler_.RemoveIf(
      [this](TaskId id) { return graph_.task(id).state != TaskState::kReady; });
  stats_.notes.push_back(message);
  return message;
}

}  // namespace gs
