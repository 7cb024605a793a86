#include "tests/support/fault_injecting_adapter.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <optional>

namespace gs {

void FaultPlan::Changed() {
  std::function<void()> fn;
  {
    std::lock_guard<std::mutex> lock(mu_);
    fn = on_change_;
  }
  if (fn) fn();
}

void FaultPlan::SetDown(bool down) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    down_ = down;
  }
  Changed();
}

void FaultPlan::FailNextSubmits(int n, JobOutcome outcome) {
  std::lock_guard<std::mutex> lock(mu_);
  for (int i = 0; i < n; ++i) fail_next_.push_back(outcome);
}

void FaultPlan::Hang(Seconds silent_for) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    hung_ = true;
    silent_for_ = silent_for;
  }
  Changed();
}

void FaultPlan::Resume() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    hung_ = false;
  }
  Changed();
}

void FaultPlan::LoseFile(const std::string& path) {
  std::lock_guard<std::mutex> lock(mu_);
  lost_files_.insert(path);
}

void FaultPlan::set_heartbeat(Seconds interval, Seconds timeout) {
  std::lock_guard<std::mutex> lock(mu_);
  heartbeat_interval_ = interval;
  heartbeat_timeout_ = timeout;
}

void FaultPlan::set_on_change(std::function<void()> fn) {
  std::lock_guard<std::mutex> lock(mu_);
  on_change_ = std::move(fn);
}

int FaultPlan::injected_failures() const {
  std::lock_guard<std::mutex> lock(mu_);
  return injected_;
}

int FaultPlan::submits() const {
  std::lock_guard<std::mutex> lock(mu_);
  return submits_;
}

FaultInjectingAdapter::FaultInjectingAdapter(boost::asio::io_context& io,
                                             Clock& clock,
                                             std::unique_ptr<Adapter> inner,
                                             std::shared_ptr<FaultPlan> plan)
    : AdapterWrapper(*inner),
      io_(io),
      clock_(clock),
      owned_(std::move(inner)),
      plan_(std::move(plan)) {
  // Captures only what outlives the adapter (the io_context and the
  // liveness flag): the test thread may call it while the adapter goes.
  plan_->set_on_change([this, &io = io_, alive = alive_] {
    boost::asio::post(io, [this, alive] {
      if (*alive) Check();
    });
  });
}

FaultInjectingAdapter::~FaultInjectingAdapter() {
  plan_->set_on_change(nullptr);
  *alive_ = false;
}

void FaultInjectingAdapter::Post(std::function<void()> fn) {
  boost::asio::post(io_, [alive = alive_, fn = std::move(fn)] {
    if (*alive) fn();
  });
}

bool FaultInjectingAdapter::Down() const {
  std::lock_guard<std::mutex> lock(plan_->mu_);
  return plan_->down_;
}

Status FaultInjectingAdapter::Connect() {
  if (Down()) return Status::Unavailable("injected fault: host is down");
  return target().Connect();
}

int FaultInjectingAdapter::FreeSlots() const {
  if (!connected()) return 0;
  return target().FreeSlots() - static_cast<int>(held_submits_.size());
}

bool FaultInjectingAdapter::connected() const {
  return !given_up_ && !Down() && target().connected();
}

void FaultInjectingAdapter::Reconnect(std::function<void(Status)> done) {
  bool refuse;
  {
    std::lock_guard<std::mutex> lock(plan_->mu_);
    refuse = plan_->down_ || plan_->hung_;
  }
  if (refuse) {
    Post([done = std::move(done)] {
      done(Status::Unavailable("injected fault: host does not answer"));
    });
    return;
  }
  given_up_ = false;
  target().Reconnect(std::move(done));
}

Seconds FaultInjectingAdapter::last_heard() const {
  if (heartbeat_interval() <= 0) return target().last_heard();
  return hung_since_ >= 0 ? hung_since_ : clock_.Now();
}

Seconds FaultInjectingAdapter::heartbeat_interval() const {
  std::lock_guard<std::mutex> lock(plan_->mu_);
  return plan_->heartbeat_interval_ > 0 ? plan_->heartbeat_interval_
                                        : target().heartbeat_interval();
}

void FaultInjectingAdapter::Submit(JobSpec spec, DoneCallback done) {
  std::optional<JobOutcome> injected;
  bool hung;
  {
    std::lock_guard<std::mutex> lock(plan_->mu_);
    ++plan_->submits_;
    hung = plan_->hung_;
    if (plan_->down_ || given_up_) {
      injected = HostFailed{"injected fault: host is down"};
    } else if (!plan_->fail_next_.empty()) {
      injected = plan_->fail_next_.front();
      plan_->fail_next_.pop_front();
    }
    if (injected) ++plan_->injected_;
  }
  if (injected) {
    JobReport report;
    report.id = spec.id;
    report.submitted = report.started = report.ended = clock_.Now();
    report.outcome = std::move(*injected);
    Post([done = std::move(done), report = std::move(report)]() mutable {
      done(std::move(report));
    });
    return;
  }
  const JobId id = spec.id;
  Running& run = running_[id];
  run.done = std::move(done);
  for (const JobParam& p : spec.params) {
    if (!p.dest.empty()) run.outputs.push_back(p.dest);
  }
  if (hung) {
    held_submits_.push_back({std::move(spec), nullptr});
    return;
  }
  target().Submit(std::move(spec),
                  [this](JobReport report) { OnInnerDone(std::move(report)); });
}

void FaultInjectingAdapter::OnInnerDone(JobReport report) {
  auto it = running_.find(report.id);
  if (it == running_.end()) return;  // already given up as failed
  if (auto* e = std::get_if<Exited>(&report.outcome); e && e->succeeded()) {
    std::lock_guard<std::mutex> lock(plan_->mu_);
    for (const std::string& path : it->second.outputs) {
      plan_->lost_files_.erase(path);
    }
  }
  if (hung_since_ >= 0) {
    it->second.finished = true;
    it->second.report = std::move(report);
    return;
  }
  DoneCallback done = std::move(it->second.done);
  running_.erase(it);
  done(std::move(report));
}

void FaultInjectingAdapter::Cancel(JobId id) {
  for (auto it = held_submits_.begin(); it != held_submits_.end(); ++it) {
    if (it->first.id != id) continue;
    held_submits_.erase(it);
    auto run = running_.find(id);
    DoneCallback done = std::move(run->second.done);
    running_.erase(run);
    JobReport report;
    report.id = id;
    report.outcome = Cancelled{};
    Post([done = std::move(done), report]() mutable { done(report); });
    return;
  }
  target().Cancel(id);
}

void FaultInjectingAdapter::FailRunning(const std::string& why) {
  auto running = std::move(running_);
  running_.clear();
  held_submits_.clear();
  for (auto& [id, run] : running) {
    JobReport report;
    report.id = id;
    report.submitted = report.started = report.ended = clock_.Now();
    report.outcome = HostFailed{why};
    {
      std::lock_guard<std::mutex> lock(plan_->mu_);
      ++plan_->injected_;
    }
    Post([done = std::move(run.done), report]() mutable { done(report); });
  }
}

void FaultInjectingAdapter::ReleaseHeld() {
  auto held = std::move(held_submits_);
  held_submits_.clear();
  std::vector<JobId> finished;
  for (auto& [id, run] : running_) {
    if (run.finished) finished.push_back(id);
  }
  for (JobId id : finished) {
    auto it = running_.find(id);
    DoneCallback done = std::move(it->second.done);
    JobReport report = std::move(it->second.report);
    running_.erase(it);
    done(std::move(report));
  }
  for (auto& [spec, unused] : held) {
    target().Submit(std::move(spec), [this](JobReport report) {
      OnInnerDone(std::move(report));
    });
  }
}

void FaultInjectingAdapter::Check() {
  bool down, hung;
  Seconds timeout, silent_for;
  {
    std::lock_guard<std::mutex> lock(plan_->mu_);
    down = plan_->down_;
    hung = plan_->hung_;
    timeout = plan_->heartbeat_timeout_;
    silent_for = plan_->silent_for_;
  }
  if (down) {
    hang_timer_.reset();
    FailRunning("injected fault: host is down");
    return;
  }
  if (hung && hung_since_ < 0) {
    hung_since_ = clock_.Now() - silent_for;
    if (timeout > 0) {
      hang_timer_ = clock_.After(timeout - silent_for, [this] {
        bool still;
        {
          std::lock_guard<std::mutex> lock(plan_->mu_);
          still = plan_->hung_;
        }
        if (!still) return;
        given_up_ = true;
        FailRunning("injected fault: no heartbeat for " +
                    std::to_string(clock_.Now() - hung_since_) + " s");
      });
    }
  } else if (!hung && hung_since_ >= 0) {
    hung_since_ = -1;
    hang_timer_.reset();
    ReleaseHeld();
  }
}

void FaultInjectingAdapter::Shutdown() {
  hang_timer_.reset();
  hung_since_ = -1;
  ReleaseHeld();
  target().Shutdown();
  FailRunning("shut down");
}

void FaultInjectingAdapter::Put(std::string master_path, std::string host_path,
                                StatusCallback done) {
  if (!connected() || hung_since_ >= 0) {
    Post([done = std::move(done)] {
      done(Status::Unavailable("injected fault: host does not answer"));
    });
    return;
  }
  {
    std::lock_guard<std::mutex> lock(plan_->mu_);
    plan_->lost_files_.erase(host_path);  // a fresh copy arrives
  }
  target().Put(std::move(master_path), std::move(host_path), std::move(done));
}

void FaultInjectingAdapter::Get(std::string host_path, std::string master_path,
                                StatusCallback done) {
  bool lost;
  {
    std::lock_guard<std::mutex> lock(plan_->mu_);
    lost = plan_->lost_files_.count(host_path) > 0;
  }
  if (!connected() || hung_since_ >= 0 || lost) {
    Status s =
        lost ? Status::NotFound("injected fault: " + host_path +
                                " is no longer on the host")
             : Status::Unavailable("injected fault: host does not answer");
    Post([done = std::move(done), s] { done(s); });
    return;
  }
  target().Get(std::move(host_path), std::move(master_path), std::move(done));
}

void FaultInjectingAdapter::Probe(ProbeCallback done) {
  if (!connected() || hung_since_ >= 0) {
    Post([done = std::move(done)] {
      done(Status::Unavailable("injected fault: host does not answer"));
    });
    return;
  }
  target().Probe(std::move(done));
}

}  // namespace gs
