// The engine's periodic work (health checks, the progress line, the stall
// watch, availability slots, proactive policies) as one owned set of
// timers on the run's Clock, cancelled together when the run ends.
// Engine thread only, like the Clock's timers it holds; not locked.
#ifndef GSRT_RUNTIME_ENGINE_PERIODIC_TIMERS_H_
#define GSRT_RUNTIME_ENGINE_PERIODIC_TIMERS_H_

#include <functional>
#include <memory>
#include <vector>

#include "runtime/base/clock.h"

namespace gs {

class PeriodicTimers {
 public:
  // `clock` must outlive this object.
  explicit PeriodicTimers(Clock* clock) : clock_(clock) {}
  ~PeriodicTimers() { CancelAll(); }
  PeriodicTimers(const PeriodicTimers&) = delete;
  PeriodicTimers& operator=(const PeriodicTimers&) = delete;

  // Runs `tick` `every` seconds from now, and again every `every` seconds
  // for as long as it returns true.
  void Every(Seconds every, std::function<bool()> tick);
  // No tick runs after this; Every may start new ones.
  void CancelAll();
  // Ticks still scheduled.
  size_t active() const;

 private:
  struct Periodic {
    Seconds every;
    std::function<bool()> tick;
    std::unique_ptr<Timer> timer;
  };
  void Arm(Periodic* p);

  Clock* const clock_;
  std::vector<std::unique_ptr<Periodic>> periodic_;
};

}  // namespace gs

#endif  // GSRT_RUNTIME_ENGINE_PERIODIC_TIMERS_H_
