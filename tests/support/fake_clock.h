// A manual clock for tests of timing logic (scheduler, timeouts, backoff):
// time moves only when the test says so, and due timers run inside
// Advance(), in order of due time, with Now() equal to each one's due time.
#ifndef GSRT_TESTS_SUPPORT_FAKE_CLOCK_H_
#define GSRT_TESTS_SUPPORT_FAKE_CLOCK_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <utility>

#include "runtime/base/clock.h"

namespace gs {

class FakeClock : public Clock {
 public:
  explicit FakeClock(Seconds start = 0) : state_(std::make_shared<State>()) {
    state_->now = start;
  }

  Seconds Now() const override { return state_->now; }

  // Jumps to `t` without running timers (even those that become due).
  void SetNow(Seconds t) { state_->now = t; }

  // As AsioClock: destroying the returned Timer cancels it.
  std::unique_ptr<Timer> After(Seconds delay,
                               std::function<void()> fn) override {
    if (delay < 0) delay = 0;
    Key key{state_->now + delay, state_->next_seq++};
    state_->timers.emplace(key, std::move(fn));
    return std::make_unique<FakeTimer>(state_, key);
  }

  // Moves time forward by `dt`, running every timer due by the end, also
  // those that callbacks add on the way.
  void Advance(Seconds dt) {
    const Seconds target = state_->now + (dt > 0 ? dt : 0);
    while (!state_->timers.empty()) {
      auto it = state_->timers.begin();
      if (it->first.due > target) break;
      if (it->first.due > state_->now) state_->now = it->first.due;
      std::function<void()> fn = std::move(it->second);
      state_->timers.erase(it);
      fn();
    }
    state_->now = target;
  }

  // Runs the timers already due (delay 0) without moving time.
  void RunDue() { Advance(0); }

  // Timers neither run nor cancelled.
  size_t pending() const { return state_->timers.size(); }

  // Due time of the next pending timer; only valid when pending() > 0.
  Seconds next_due() const { return state_->timers.begin()->first.due; }

 private:
  struct Key {
    Seconds due;
    uint64_t seq;  // creation order breaks ties
    bool operator<(const Key& o) const {
      return due != o.due ? due < o.due : seq < o.seq;
    }
  };
  struct State {
    Seconds now = 0;
    uint64_t next_seq = 0;
    std::map<Key, std::function<void()>> timers;
  };

  class FakeTimer : public Timer {
   public:
    FakeTimer(std::weak_ptr<State> state, Key key)
        : state_(std::move(state)), key_(key) {}
    ~FakeTimer() override { Cancel(); }
    void Cancel() override {
      if (auto state = state_.lock()) state->timers.erase(key_);
    }

   private:
    std::weak_ptr<State> state_;
    Key key_;
  };

  std::shared_ptr<State> state_;
};

}  // namespace gs

#endif  // GSRT_TESTS_SUPPORT_FAKE_CLOCK_H_
