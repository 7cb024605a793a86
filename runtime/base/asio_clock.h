// The real clock: wall-clock time and timers on a Boost.Asio io_context.
#ifndef GSRT_RUNTIME_BASE_ASIO_CLOCK_H_
#define GSRT_RUNTIME_BASE_ASIO_CLOCK_H_

#include <functional>
#include <memory>

#include "runtime/base/clock.h"

namespace boost::asio {
class io_context;
}  // namespace boost::asio

namespace gs {

// Seconds since the Unix epoch by the system clock: what file times are
// compared with, whatever clock a run's engine uses.
Seconds WallClockNow();

class AsioClock : public Clock {
 public:
  // Timers run their callbacks on `io` (the engine's thread); `io` must
  // outlive the clock and every Timer it made.
  explicit AsioClock(boost::asio::io_context& io) : io_(io) {}

  // Seconds since the Unix epoch, from std::chrono::system_clock.
  Seconds Now() const override;  // WallClockNow()

  // Measures the delay on the monotonic clock, so wall-clock jumps do not
  // move it. Destroying the returned Timer cancels it, like Cancel(); a
  // negative delay runs `fn` as soon as the io_context gets to it.
  std::unique_ptr<Timer> After(Seconds delay,
                               std::function<void()> fn) override;

 private:
  boost::asio::io_context& io_;
};

}  // namespace gs

#endif  // GSRT_RUNTIME_BASE_ASIO_CLOCK_H_
