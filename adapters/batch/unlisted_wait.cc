#include "adapters/batch/unlisted_wait.h"

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <utility>

#include "runtime/base/asio_clock.h"

namespace gs {

UnlistedWait::UnlistedWait(Clock& clock, Lister list, std::vector<Job> jobs)
    : clock_(&clock), list_(std::move(list)), jobs_(std::move(jobs)) {}

UnlistedWait::~UnlistedWait() { timer_.reset(); }

void UnlistedWait::Start(std::function<void()> done) {
  done_ = std::move(done);
  waiting_ = true;
  deadline_ = clock_->Now() + kBound;
  Poll();
}

void UnlistedWait::Poll() {
  if (!AnyListed()) return Finish();
  timer_ = clock_->After(kPollInterval, [this] {
    if (clock_->Now() < deadline_) {
      Poll();
    } else {
      Finish();
    }
  });
}

bool UnlistedWait::AnyListed() {
  if (jobs_.empty()) return false;
  std::vector<std::string> names;
  for (const Job& j : jobs_) names.push_back(j.job_name);
  const QueueListings listed = list_(names);
  for (const Job& j : jobs_) {
    auto it = listed.find(j.job_name);
    if (it == listed.end() || !it->second.ok() ||
        it->second->count(j.batch_id) > 0) {
      return true;
    }
  }
  return false;
}

void UnlistedWait::Finish() {
  timer_.reset();
  waiting_ = false;
  // Last: `done` may destroy this wait.
  if (auto done = std::exchange(done_, nullptr)) done();
}

void UnlistedWait::FinishOnOwnLoop() {
  if (!waiting_) return;
  timer_.reset();  // the engine's, whose loop no longer runs
  const Seconds left = std::max(Seconds{0}, deadline_ - clock_->Now());
  Clock* engine_clock = clock_;
  boost::asio::io_context io(1);
  AsioClock own(io);
  clock_ = &own;
  deadline_ = own.Now() + left;
  // The loop runs out when the wait ended: each poll either finishes or
  // arms a timer. `done` runs after, with the engine's clock back.
  auto done = std::exchange(done_, [] {});
  Poll();
  io.run();
  timer_.reset();
  clock_ = engine_clock;
  if (done) done();
}

}  // namespace gs
