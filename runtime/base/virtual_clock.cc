#include "runtime/base/virtual_clock.h"

#include <algorithm>
#include <utility>

namespace gs {

namespace {

class VirtualTimer : public Timer {
 public:
  explicit VirtualTimer(std::shared_ptr<void> state, std::function<void()>* fn)
      : state_(std::move(state)), fn_(fn) {}
  // As with the real timers, dropping the handle cancels.
  ~VirtualTimer() override { Cancel(); }
  void Cancel() override { *fn_ = nullptr; }

 private:
  std::shared_ptr<void> state_;  // keeps *fn_ alive
  std::function<void()>* fn_;
};

}  // namespace

std::unique_ptr<Timer> VirtualClock::After(Seconds delay,
                                           std::function<void()> fn) {
  auto state = std::make_shared<State>();
  state->fn = std::move(fn);
  if (!(delay > 0)) delay = 0;
  heap_.push_back({Now() + delay, seq_++, state});
  std::push_heap(heap_.begin(), heap_.end(), Later);
  return std::make_unique<VirtualTimer>(state, &state->fn);
}

void VirtualClock::DropCancelled() {
  while (!heap_.empty() && !heap_.front().state->fn) {
    std::pop_heap(heap_.begin(), heap_.end(), Later);
    heap_.pop_back();
  }
}

bool VirtualClock::HasPending() {
  DropCancelled();
  return !heap_.empty();
}

Seconds VirtualClock::NextTime() {
  DropCancelled();
  return heap_.empty() ? Now() : heap_.front().time;
}

bool VirtualClock::RunNext() {
  DropCancelled();
  if (heap_.empty()) return false;
  std::pop_heap(heap_.begin(), heap_.end(), Later);
  Entry e = std::move(heap_.back());
  heap_.pop_back();
  if (e.time > Now()) now_.store(e.time, std::memory_order_relaxed);
  auto fn = std::move(e.state->fn);
  e.state->fn = nullptr;
  ++events_;
  fn();
  return true;
}

}  // namespace gs
