#include "runtime/engine/start_watch.h"

#include <algorithm>
#include <chrono>

namespace gs {
namespace {

using SteadyClock = std::chrono::steady_clock;

constexpr Seconds kLook = 0.1;

Seconds Now() {
  return std::chrono::duration<double>(SteadyClock::now().time_since_epoch())
      .count();
}

}  // namespace

StartWatch::StartWatch(MessageSink& sink, Seconds quiet_for)
    : sink_(sink), progress_(quiet_for) {
  thread_ = std::thread([this] { Run(); });
}

StartWatch::~StartWatch() {
  {
    MutexLock lock(&mu_);
    stopping_ = true;
  }
  stop_.notify_all();
  thread_.join();
}

size_t StartWatch::Begin(std::string name, std::string kind) {
  MutexLock lock(&mu_);
  return progress_.Begin(std::move(name), std::move(kind), Now());
}

void StartWatch::Phase(size_t host, StartPhase phase) {
  MutexLock lock(&mu_);
  Say(progress_.Phase(host, phase));
}

void StartWatch::Pause(size_t host) {
  MutexLock lock(&mu_);
  progress_.Pause(host);
}

void StartWatch::Resume(size_t host) {
  MutexLock lock(&mu_);
  progress_.Resume(host, Now());
}

void StartWatch::End(size_t host, bool ok) {
  MutexLock lock(&mu_);
  Say(progress_.End(host, ok, Now()));
}

void StartWatch::Run() {
  MutexLock lock(&mu_);
  while (!stopping_) {
    Say(progress_.Tick(Now()));
    // A host begun or resumed meanwhile is looked at within kLook (no
    // wake-up per host: a simulation starts thousands).
    const Seconds wait =
        std::min(kLook, std::max(0.0, progress_.NextDue() - Now()));
    stop_.wait_for(lock.native(), std::chrono::duration<double>(wait));
  }
}

void StartWatch::Say(const std::vector<std::string>& lines) {
  for (const std::string& line : lines) sink_.Say(MessageKind::kInfo, line);
}

}  // namespace gs
