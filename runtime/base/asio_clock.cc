#include "runtime/base/asio_clock.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <utility>

namespace gs {

namespace {

// Shared by the Timer handle and the pending wait, so that Cancel() works
// even when the expiry is already queued on the io_context (asio's cancel()
// cannot recall a handler that is about to run).
struct TimerState {
  explicit TimerState(boost::asio::io_context& io) : timer(io) {}
  boost::asio::steady_timer timer;
  std::function<void()> fn;
};

class AsioTimer : public Timer {
 public:
  explicit AsioTimer(std::shared_ptr<TimerState> state)
      : state_(std::move(state)) {}
  ~AsioTimer() override { Cancel(); }

  void Cancel() override {
    // Dropping fn is what stops it; releasing it early also frees whatever
    // it captured.
    state_->fn = nullptr;
    state_->timer.cancel();
  }

 private:
  std::shared_ptr<TimerState> state_;
};

}  // namespace

Seconds WallClockNow() {
  using std::chrono::duration;
  using std::chrono::system_clock;
  return duration<double>(system_clock::now().time_since_epoch()).count();
}

Seconds AsioClock::Now() const { return WallClockNow(); }

std::unique_ptr<Timer> AsioClock::After(Seconds delay,
                                        std::function<void()> fn) {
  auto state = std::make_shared<TimerState>(io_);
  state->fn = std::move(fn);
  if (delay < 0) delay = 0;
  state->timer.expires_after(
      std::chrono::duration_cast<std::chrono::steady_clock::duration>(
          std::chrono::duration<double>(delay)));
  state->timer.async_wait([state](const boost::system::error_code&) {
    // Runs or not by whether Cancel() has cleared fn, whatever `ec` says.
    if (!state->fn) return;
    auto fn = std::move(state->fn);
    state->fn = nullptr;
    fn();
  });
  return std::make_unique<AsioTimer>(std::move(state));
}

}  // namespace gs
