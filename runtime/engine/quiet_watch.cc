#include "runtime/engine/quiet_watch.h"

#include "runtime/base/units.h"

namespace gs {

bool QuietWatch::Look(Seconds now, bool waiting, uint64_t moved) {
  const bool was_moved = moved != moved_;
  moved_ = moved;
  if (bound_ <= 0 || !waiting || was_moved || since_ < 0) {
    since_ = waiting && bound_ > 0 ? now : -1;
    next_ = bound_;
    return false;
  }
  if (now - since_ < next_) return false;
  next_ *= 2;
  return true;
}

namespace {

std::string Secs(Seconds s) { return FormatNumber(s, "%.0f"); }

}  // namespace

std::string DescribeQuiet(Seconds quiet_for, Seconds next_report,
                          const std::vector<QuietJob>& jobs, size_t transfers,
                          const std::vector<QuietHost>& hosts) {
  constexpr size_t kShown = 8;
  std::string out = "nothing has started or ended for " + Secs(quiet_for) +
                    " s; " + std::to_string(jobs.size()) + " job" +
                    (jobs.size() == 1 ? " is" : "s are") + " out";
  if (transfers > 0) {
    out += " and " + std::to_string(transfers) + " file transfer" +
           (transfers == 1 ? "" : "s");
  }
  out += ":";
  for (size_t i = 0; i < jobs.size() && i < kShown; ++i) {
    out += "\n    " + jobs[i].what + " on " + jobs[i].host + " for " +
           Secs(jobs[i].running_for) + " s";
  }
  if (jobs.size() > kShown) {
    out += "\n    and " + std::to_string(jobs.size() - kShown) + " more";
  }
  out += "\n  hosts:";
  for (size_t i = 0; i < hosts.size(); ++i) {
    const QuietHost& h = hosts[i];
    out += (i ? ", " : " ") + h.name + " (" + h.health;
    if (!h.usable) out += ", unusable";
    if (h.silent_for >= 0) out += ", heard " + Secs(h.silent_for) + " s ago";
    if (!h.down_why.empty()) out += ", not back: " + h.down_why;
    out += ")";
  }
  out +=
      "\n  If these jobs should have ended, their hosts may have lost them: "
      "give their operations a limit (runtime.timeout in gsrt.yaml) so "
      "that they are killed and retried. Next report after " +
      Secs(next_report) + " s quiet.";
  return out;
}

}  // namespace gs
