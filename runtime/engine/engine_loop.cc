#include "runtime/engine/engine_loop.h"

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <csignal>
#include <cstdlib>

#include "runtime/base/asio_clock.h"
#include "runtime/base/virtual_clock.h"

namespace gs {

EngineLoop::EngineLoop(bool virtual_time, Mutex& mu, MasterGate& gate,
                       MessageSink& messages)
    : virtual_time_(virtual_time), mu_(mu), gate_(gate), messages_(messages) {}

EngineLoop::~EngineLoop() {
  // Timers and signals reference the io_context: they go first.
  timers_.reset();
  signals_.reset();
  clock_.reset();
}

void EngineLoop::Make() {
  io_ = std::make_unique<boost::asio::io_context>(1);
  {
    MutexLock lock(&mu_);
    gate_.set_virtual(virtual_time_);
  }
  if (virtual_time_) {
    clock_ = std::make_unique<VirtualClock>();
  } else {
    clock_ = std::make_unique<AsioClock>(*io_);
  }
  timers_ = std::make_unique<PeriodicTimers>(clock_.get());
}

void EngineLoop::Run() {
  thread_ = std::thread([this] {
    if (virtual_time_) return RunVirtualTime();
    auto guard = boost::asio::make_work_guard(*io_);
    io_->run();
  });
}

void EngineLoop::HandleSignals(std::function<void(int)> on_signal) {
  auto signals =
      std::make_shared<boost::asio::signal_set>(*io_, SIGINT, SIGTERM);
  signals->async_wait([on_signal = std::move(on_signal)](
                          const boost::system::error_code& ec, int sig) {
    if (!ec) on_signal(sig);
  });
  signals_ = signals;
}

void EngineLoop::Stop() { io_->stop(); }

void EngineLoop::Join() {
  if (thread_.joinable()) thread_.join();
}

void EngineLoop::RunVirtualTime() {
  auto* clock = static_cast<VirtualClock*>(clock_.get());
  auto guard = boost::asio::make_work_guard(*io_);
  while (!io_->stopped()) {
    {
      MutexLock lock(&mu_);
      gate_.WaitForTurn(lock);
    }
    if (io_->poll_one() > 0) continue;
    if (io_->stopped()) break;
    bool gone;
    {
      MutexLock lock(&mu_);
      gone = gate_.master_gone();
    }
    if (gone) {
      // The run is over: only the shutdown the master is posting remains.
      // Time must not run on (availability processes never end).
      io_->run_one();
      continue;
    }
    if (clock->RunNext()) continue;
    // Nothing is ready, no timer is pending and the master waits: no
    // event can ever wake it.
    Sayf(messages_, MessageKind::kError,
         "gsrt: virtual time %.3f: the master waits for something "
         "no pending event can bring (a deadlock in the simulated "
         "run)\n",
         clock->Now());
    std::abort();
  }
}

}  // namespace gs
