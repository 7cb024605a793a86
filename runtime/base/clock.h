// The one seam through which runtime code reads time and sets timers, so the
// same engine runs in real time and in the simulator's virtual time.
#ifndef GSRT_RUNTIME_BASE_CLOCK_H_
#define GSRT_RUNTIME_BASE_CLOCK_H_

#include <cstdint>
#include <functional>
#include <memory>

namespace gs {

// Seconds since the Unix epoch (real clock) or since the start of a
// simulation (virtual clock).
using Seconds = double;

class Timer {
 public:
  virtual ~Timer() = default;
  // Stops the callback from running if it has not run yet.
  virtual void Cancel() = 0;
};

class Clock {
 public:
  virtual ~Clock() = default;
  virtual Seconds Now() const = 0;
  // Runs `fn` once, `delay` seconds from now, on the engine's thread.
  virtual std::unique_ptr<Timer> After(Seconds delay,
                                       std::function<void()> fn) = 0;
};

}  // namespace gs

#endif  // GSRT_RUNTIME_BASE_CLOCK_H_
