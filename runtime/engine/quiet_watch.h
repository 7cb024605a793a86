// The quiet-run report's decision: jobs are out, yet nothing has started or
// ended for a while. Unlike a stall (stall_watch.h) this is not failed: a
// job may run for hours on purpose. But a run that waits on jobs nobody
// hears from must say so, with what it waits on, rather than look hung.
// The same decision watches the engine thread itself (loop_watchdog.h).
// Pure: the caller feeds it one look per period.
#ifndef GSRT_RUNTIME_ENGINE_QUIET_WATCH_H_
#define GSRT_RUNTIME_ENGINE_QUIET_WATCH_H_

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/base/clock.h"

namespace gs {

class QuietWatch {
 public:
  // The first report after `bound` quiet seconds; 0 turns the watch off.
  explicit QuietWatch(Seconds bound = 0) : bound_(bound) {}

  // `waiting`: something is out that should end (jobs, transfers).
  // `moved` grows whenever anything starts or ends. True when a report is
  // due: quiet for the bound, then again each time the quiet time doubled,
  // so a long job is reported a few times, not every period.
  bool Look(Seconds now, bool waiting, uint64_t moved);
  Seconds quiet_since() const { return since_; }
  // Quiet seconds at which the next report is due.
  Seconds next_report() const { return next_; }

 private:
  Seconds bound_;
  Seconds since_ = -1;  // -1: not quiet at the last look
  Seconds next_ = 0;
  uint64_t moved_ = 0;
};

// One job that is out, as the report shows it.
struct QuietJob {
  std::string what;  // "task 12 (scratch)"
  std::string host;
  Seconds running_for = 0;
};

// One host as the report shows it.
struct QuietHost {
  std::string name;
  std::string health;  // "up", "suspect", "down"
  bool usable = true;
  Seconds silent_for = -1;  // since its agent was last heard; -1: no agent
  std::string down_why;     // why it is not back yet (its last reconnect)
};

// What the run waits on and what to do.
std::string DescribeQuiet(Seconds quiet_for, Seconds next_report,
                          const std::vector<QuietJob>& jobs, size_t transfers,
                          const std::vector<QuietHost>& hosts);

}  // namespace gs

#endif  // GSRT_RUNTIME_ENGINE_QUIET_WATCH_H_
