#include "runtime/observe/summary_observer.h"

#include <algorithm>
#include <cstdio>

namespace gs {

namespace {

std::string Fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

}  // namespace

std::string FormatSummaryAdditions(const RunReport& r) {
  std::string out;
  if (r.jobs == 0) return out;
  out += "gsrt:   critical path: " + Fixed(r.critical.length, 2) + " s over " +
         std::to_string(r.critical.tasks.size()) + " tasks";
  if (r.span > 0) {
    // The span starts at the first submission, so it is shorter than the
    // run's time, which also counts starting the hosts and GS_Off.
    out += " (" + Fixed(100 * r.critical.length / r.span, 0) + "% of the " +
           Fixed(r.span, 2) + " s from the first call to the last job's end)";
  }
  out += "\ngsrt:   utilization:";
  for (const HostUse& h : r.hosts) {
    out += " " + h.host + " " + Fixed(100 * h.utilization, 0) + "% of " +
           std::to_string(h.slots) + " slots;";
  }
  if (out.back() == ';') out.pop_back();
  out += "\n";
  if (r.transfers > 0) {
    out += "gsrt:   staging: " + std::to_string(r.transfers) + " transfers, " +
           std::to_string(r.staged_bytes) + " bytes, " + Fixed(r.staging, 2) +
           " s\n";
  }
  out += "gsrt:   slowest operations:";
  size_t shown = 0;
  for (const OperationUse& o : r.operations) {
    if (++shown > 3) break;
    out += " " + o.operation + " " + Fixed(o.mean, 3) + " s (mean of " +
           std::to_string(o.ok) + "), longest " + Fixed(o.longest, 3) + " s;";
  }
  if (out.back() == ';') out.pop_back();
  return out + "\n";
}

void SummaryObserver::OnTaskSubmitted(const TaskRecord& task) {
  std::lock_guard<std::mutex> lock(mu_);
  index_[task.task] = tasks_.size();
  tasks_.push_back(StoredTask{task, "submitted", 0});
}

void SummaryObserver::OnJobStarted(const JobStart& job) {
  if (job.slots <= 0) return;
  std::lock_guard<std::mutex> lock(mu_);
  slots_[job.host] = job.slots;
}

void SummaryObserver::OnJobEnded(const JobRecord& job) {
  std::lock_guard<std::mutex> lock(mu_);
  jobs_.push_back(job);
  // Only what the report reads; errors and logs of the failures are kept.
  if (job.outcome == OutcomeClass::kOk) jobs_.back().log_dir.clear();
}

void SummaryObserver::OnEvent(const RunEvent& event) {
  if (event.kind != "transfer") return;
  std::lock_guard<std::mutex> lock(mu_);
  transfers_.push_back(event);
}

void SummaryObserver::OnTaskEnded(const TaskEnd& end) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = index_.find(end.task);
  if (it == index_.end()) return;
  tasks_[it->second].state = end.state;
  tasks_[it->second].ended = end.time;
}

RunReport SummaryObserver::Report() const {
  std::lock_guard<std::mutex> lock(mu_);
  return BuildRunReport(tasks_, jobs_, transfers_, slots_);
}

void SummaryObserver::OnRunEnded(Seconds, RunStatus) {
  if (messages_ == nullptr) return;
  std::string text = FormatSummaryAdditions(Report());
  if (!text.empty()) messages_->Say(MessageKind::kSummary, text);
}

}  // namespace gs
