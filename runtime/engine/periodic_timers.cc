#include "runtime/engine/periodic_timers.h"

namespace gs {

void PeriodicTimers::Every(Seconds every, std::function<bool()> tick) {
  periodic_.push_back(
      std::make_unique<Periodic>(Periodic{every, std::move(tick), nullptr}));
  Arm(periodic_.back().get());
}

void PeriodicTimers::Arm(Periodic* p) {
  p->timer = clock_->After(p->every, [this, p] {
    if (p->tick()) {
      Arm(p);
    } else {
      p->timer.reset();
    }
  });
}

void PeriodicTimers::CancelAll() {
  for (auto& p : periodic_) {
    if (p->timer) p->timer->Cancel();
  }
  periodic_.clear();
}

size_t PeriodicTimers::active() const {
  size_t n = 0;
  for (const auto& p : periodic_) n += p->timer != nullptr;
  return n;
}

}  // namespace gs
