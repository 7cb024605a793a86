// Virtual time for the simulator: a Clock whose Now() moves only when the
// driver runs the next timer. Timers fire in (time, order of creation)
// order, so a run is the same every time for the same inputs.
//
// Single-threaded: After(), Cancel() and RunNext() are called from the
// engine's thread only; Now() may be read from any thread.
#ifndef GSRT_RUNTIME_BASE_VIRTUAL_CLOCK_H_
#define GSRT_RUNTIME_BASE_VIRTUAL_CLOCK_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "runtime/base/clock.h"

namespace gs {

class VirtualClock : public Clock {
 public:
  VirtualClock() = default;

  Seconds Now() const override { return now_.load(std::memory_order_relaxed); }
  // A negative delay counts as 0: the timer fires at Now(), after the
  // timers already due then.
  std::unique_ptr<Timer> After(Seconds delay,
                               std::function<void()> fn) override;

  // Advances Now() to the earliest pending timer and runs it. False when
  // no timer is pending (cancelled ones are skipped).
  bool RunNext();
  // Whether a timer that is not cancelled is pending.
  bool HasPending();
  // Time of the earliest pending timer (Now() when none).
  Seconds NextTime();

  // Timers run so far (the simulator's event count).
  uint64_t events() const { return events_; }

 private:
  struct State {
    std::function<void()> fn;
  };
  struct Entry {
    Seconds time;
    uint64_t seq;
    std::shared_ptr<State> state;
  };
  static bool Later(const Entry& a, const Entry& b) {
    if (a.time != b.time) return a.time > b.time;
    return a.seq > b.seq;
  }
  void DropCancelled();

  std::atomic<Seconds> now_{0};
  uint64_t seq_ = 0;
  uint64_t events_ = 0;
  std::vector<Entry> heap_;
};

}  // namespace gs

#endif  // GSRT_RUNTIME_BASE_VIRTUAL_CLOCK_H_
