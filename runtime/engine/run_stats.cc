#include "runtime/engine/run_stats.h"

#include <algorithm>
#include <cstdio>

namespace gs {

std::string FormatProgress(const RunStats& s) {
  const uint64_t queued = std::min(s.queued_on_hosts, s.running);
  std::string queued_text;
  if (queued > 0) {
    queued_text = ", " + std::to_string(queued) + " queued on hosts";
  }
  std::string reused_text;
  if (s.reused_earlier > 0) {
    reused_text = " (" + std::to_string(s.reused_earlier) + " reused)";
  }
  char buf[240];
  std::snprintf(buf, sizeof buf,
                "gsrt: %llu done%s, %llu running%s, %llu waiting, %llu failed",
                static_cast<unsigned long long>(s.done), reused_text.c_str(),
                static_cast<unsigned long long>(s.running - queued),
                queued_text.c_str(),
                static_cast<unsigned long long>(s.waiting()),
                static_cast<unsigned long long>(s.failed + s.futile));
  return buf;
}

std::string FormatSummary(const RunStats& s, Seconds elapsed) {
  std::string out;
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "gsrt: %llu tasks in %.2f s: %llu done, %llu failed, "
                "%llu not run; %llu jobs (%llu retries)\n",
                static_cast<unsigned long long>(s.submitted), elapsed,
                static_cast<unsigned long long>(s.done),
                static_cast<unsigned long long>(s.failed),
                static_cast<unsigned long long>(s.futile),
                static_cast<unsigned long long>(s.jobs),
                static_cast<unsigned long long>(s.retries));
  out += buf;
  if (s.replicas > 0) {
    std::snprintf(buf, sizeof buf,
                  "gsrt: %llu replicas started, %llu finished first\n",
                  static_cast<unsigned long long>(s.replicas),
                  static_cast<unsigned long long>(s.replica_wins));
    out += buf;
  }
  if (s.reused_earlier > 0) {
    std::snprintf(
        buf, sizeof buf,
        "gsrt:   %llu tasks: %llu run, %llu reused from earlier "
        "runs\n",
        static_cast<unsigned long long>(s.done),
        static_cast<unsigned long long>(s.done - s.reused_earlier - s.reused),
        static_cast<unsigned long long>(s.reused_earlier));
    out += buf;
  }
  if (s.reused > 0) {
    std::snprintf(buf, sizeof buf,
                  "gsrt:   %llu tasks reused from the interrupted run\n",
                  static_cast<unsigned long long>(s.reused));
    out += buf;
  }
  if (s.adopted > 0) {
    std::snprintf(buf, sizeof buf,
                  "gsrt:   %llu batch jobs of the interrupted run taken over\n",
                  static_cast<unsigned long long>(s.adopted));
    out += buf;
  }
  if (s.rerun_changed > 0) {
    std::snprintf(buf, sizeof buf,
                  "gsrt:   %llu tasks rerun because the functions changed "
                  "(the worker differs from the interrupted run's)\n",
                  static_cast<unsigned long long>(s.rerun_changed));
    out += buf;
  }
  for (const auto& [host, n] : s.jobs_per_host) {
    std::snprintf(buf, sizeof buf, "gsrt:   %llu jobs on %s\n",
                  static_cast<unsigned long long>(n), host.c_str());
    out += buf;
  }
  for (const TaskFailure& f : s.failures) {
    out += "gsrt: task " + std::to_string(f.task) + " (" + f.operation +
           ") failed after " + std::to_string(f.attempts) +
           (f.attempts == 1 ? " attempt: " : " attempts: ") + f.error;
    if (!f.log_dir.empty()) out += "; logs in " + f.log_dir;
    if (!f.log_dir.empty() && !f.log_note.empty()) {
      out += " (" + f.log_note + ")";
    }
    out += "\n";
    if (!f.call.empty()) out += "gsrt:   called as " + f.call + "\n";
  }
  for (const std::string& note : s.notes) out += "gsrt: " + note + "\n";
  return out;
}

}  // namespace gs
