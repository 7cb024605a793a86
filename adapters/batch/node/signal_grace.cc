#include "adapters/batch/node/signal_grace.h"

#include <signal.h>

namespace gs {

SignalGraceAdapter::SignalGraceAdapter(Adapter& inner, Clock& clock,
                                       Seconds grace)
    : AdapterWrapper(inner), clock_(clock), grace_(grace) {}

SignalGraceAdapter::~SignalGraceAdapter() {
  Shutdown();
  *alive_ = false;
}

bool SignalGraceAdapter::KilledBySignal(const JobOutcome& outcome) {
  const Exited* e = std::get_if<Exited>(&outcome);
  if (e == nullptr) return false;
  for (int sig : {SIGTERM, SIGKILL, SIGINT, SIGHUP}) {
    if (e->code == 128 + sig) return true;
  }
  return false;
}

int SignalGraceAdapter::FreeSlots() const {
  return std::max(0, target().FreeSlots() - static_cast<int>(held_.size()));
}

void SignalGraceAdapter::Submit(JobSpec spec, DoneCallback done) {
  std::shared_ptr<bool> alive = alive_;
  target().Submit(std::move(spec),
                  [this, alive, done = std::move(done)](JobReport report) {
                    if (!*alive || !KilledBySignal(report.outcome))
                      return done(report);
                    const JobId id = report.id;
                    Held& held = held_[id];
                    held.report = std::move(report);
                    held.done = std::move(done);
                    held.timer = clock_.After(grace_, [this, alive, id] {
                      if (!*alive) return;
                      auto it = held_.find(id);
                      if (it == held_.end()) return;
                      Held h = std::move(it->second);
                      held_.erase(it);
                      h.done(std::move(h.report));
                    });
                  });
}

void SignalGraceAdapter::Shutdown() {
  target().Shutdown();
  auto held = std::move(held_);
  held_.clear();
  for (auto& [id, h] : held) {
    h.timer.reset();
    h.report.outcome = Cancelled{};
    h.done(std::move(h.report));
  }
}

}  // namespace gs
