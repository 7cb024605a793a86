// Availability checks at a regular pace (paper 004 eq. 1-2). The paper
// counts attempts to reach a host as if they came at a steady rate; the
// runtime tries a lost host again as fast as its retries go (every 0.25 s
// at GS_Off), so a burst of attempts within one outage would otherwise
// weigh as many checks. CheckPace decides which attempts count: every
// answered one, and an unanswered one when it starts an outage (the
// host's previous attempt was answered, or there was none) or comes at
// least kCheckPace after the last unanswered one that counted. Recording
// only the attempts that count and counting recorded rows again give the
// same figures, so histories written before this rule read the same way.
//
// One CheckPace per host; attempts in time order. Not thread-safe.
#ifndef GSRT_RUNTIME_HISTORY_CHECK_PACE_H_
#define GSRT_RUNTIME_HISTORY_CHECK_PACE_H_

#include <cstdint>
#include <optional>

#include "runtime/base/clock.h"

namespace gs {

// One check a minute at most while a host stays unanswered.
inline constexpr Seconds kCheckPace = 60;

class CheckPace {
 public:
  // Whether the attempt at `time` counts; counts it if so.
  bool Counts(Seconds time, bool answered);

  int64_t attempts() const { return attempts_; }          // ta
  int64_t not_answered() const { return not_answered_; }  // na

 private:
  int64_t attempts_ = 0;
  int64_t not_answered_ = 0;
  bool last_answered_ = true;  // the previous attempt, counted or not
  std::optional<Seconds> last_counted_unanswered_;
};

}  // namespace gs

#endif  // GSRT_RUNTIME_HISTORY_CHECK_PACE_H_
