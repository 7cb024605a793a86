#include "runtime/engine/host_monitor.h"

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <memory>
#include <string>
#include <vector>

#include "runtime/base/virtual_clock.h"
#include "runtime/graph/operation_table.h"
#include "tests/support/recording_adapter.h"

namespace gs {
namespace {

// Reconnects fail `failures` times, then succeed; each attempt's time is
// kept.
class FlakyAdapter : public testing::RecordingAdapter {
 public:
  FlakyAdapter(const Clock* clock, int failures)
      : clock_(clock), failures_(failures) {}
  void Reconnect(std::function<void(Status)> done) override {
    attempts.push_back(clock_->Now());
    if (failures_-- > 0) return done(Status::Unavailable("refused"));
    answers.connected = true;
    done(Status::Ok());
  }
  std::vector<Seconds> attempts;

 private:
  const Clock* clock_;
  int failures_;
};

class NoSweeps : public HostSweeper::Site {
 public:
  bool Stopping() const override { return false; }
  void Post(std::function<void()> fn) override { fn(); }
  std::vector<std::string> KeptFiles(HostId) const override { return {}; }
  std::vector<std::pair<HostId, std::string>> ResumedCopies() const override {
    return {};
  }
  void RemoveRemoteCopies() override {}
  void Reconnect(HostId) override {}
  void ReconnectAnswered(HostId, bool) override {}
  void RecordHostLost(HostId, const std::string&) override {}
  void Wait(MutexLock&, Seconds, std::function<bool()>) override {}
  void NotifyWaiters() override {}
};

class BackLog : public HostMonitor::Site {
 public:
  explicit BackLog(std::vector<HostId>* back) : back_(*back) {}
  void HostBack(HostId host) override { back_.push_back(host); }

 private:
  std::vector<HostId>& back_;
};

// A virtual-time loop that is never run: the test drives it (posted
// handlers with Drain, timers with the clock's RunNext), on its own thread.
class HostMonitorTest : public ::testing::Test {
 protected:
  HostMonitorTest() {
    loop_.Make();
    hosts_.set_clock(&loop_.clock());
    recorder_.set_clock(&loop_.clock());
  }

  template <typename A>
  A* AddHost(std::unique_ptr<A> adapter) {
    A* raw = adapter.get();
    auto entry = std::make_unique<HostEntry>();
    entry->name = "n" + std::to_string(hosts_.size());
    entry->shared = false;
    entry->adapter = std::move(adapter);
    hosts_.Add(std::move(entry));
    recorder_.AddHost(hosts_[hosts_.size() - 1]->name, "test", true);
    return raw;
  }

  void Drain() {
    loop_.io().restart();
    loop_.io().poll();
  }
  VirtualClock& clock() { return static_cast<VirtualClock&>(loop_.clock()); }
  int Said(std::string_view part) {
    int n = 0;
    for (const auto& m : messages_.messages()) {
      n += m.text.find(part) != std::string::npos;
    }
    return n;
  }

  Mutex mu_;
  MasterGate gate_;
  RecordingMessages messages_;
  EngineLoop loop_{/*virtual_time=*/true, mu_, gate_, messages_};
  FileTable files_{"/work"};
  TaskGraph graph_{&files_};
  OperationTable ops_;
  HostSet hosts_{/*rtt_bound=*/1};
  RunStats stats_;
  RunRecorder recorder_{graph_, ops_, messages_};
  HostSweeper sweeper_{
      "me:/work", /*virtual_time=*/true,       hosts_, mu_, stats_,
      messages_,  std::make_unique<NoSweeps>()};
  std::vector<HostId> back_;
  HostMonitor monitor_{
      /*backoff=*/1, /*backoff_max=*/4,
      mu_,           loop_,
      hosts_,        sweeper_,
      recorder_,     stats_,
      messages_,     std::make_unique<BackLog>(&back_)};
};

TEST_F(HostMonitorTest, ALostHostIsTriedWithADoublingBoundedBackoffUntilBack) {
  FlakyAdapter* adapter =
      AddHost(std::make_unique<FlakyAdapter>(&loop_.clock(), 3));
  {
    MutexLock lock(&mu_);
    monitor_.HostLost(mu_, 0, "connection reset");
  }
  EXPECT_FALSE(hosts_[0]->usable);
  EXPECT_TRUE(hosts_[0]->left_behind);
  for (int i = 0; i < 10 && back_.empty(); ++i) {
    Drain();
    if (!clock().RunNext()) break;
  }
  EXPECT_EQ(adapter->attempts, (std::vector<Seconds>{1, 3, 7, 11}))
      << "1 s, then doubling to the 4 s bound";
  EXPECT_EQ(back_, std::vector<HostId>{0});
  EXPECT_TRUE(hosts_[0]->usable);
  EXPECT_EQ(Said("host n0 is not back yet: refused"), 1) << "said once";
  EXPECT_EQ(Said("host n0 is back"), 1);
}

TEST_F(HostMonitorTest, NoAttemptOnceTheRunIsStopping) {
  FlakyAdapter* adapter =
      AddHost(std::make_unique<FlakyAdapter>(&loop_.clock(), 0));
  {
    MutexLock lock(&mu_);
    monitor_.HostLost(mu_, 0, "gone");
    loop_.set_stopping(mu_);
  }
  Drain();
  while (clock().RunNext()) Drain();
  EXPECT_TRUE(adapter->attempts.empty());
  EXPECT_TRUE(back_.empty());
}

TEST_F(HostMonitorTest, ASilentHostTurnsSuspectAndIsToldOnce) {
  auto adapter = std::make_unique<testing::RecordingAdapter>();
  adapter->answers.connected = true;
  adapter->answers.last_heard = 0;
  adapter->answers.heartbeat_interval = 2;
  AddHost(std::move(adapter));
  monitor_.SetSlot();
  monitor_.Start();
  for (int i = 0; i < 20 && clock().Now() < 6; ++i)
    ASSERT_TRUE(clock().RunNext());
  EXPECT_EQ(Said("host n0 is suspect"), 1) << messages_.AllText();
  MutexLock lock(&mu_);
  ASSERT_FALSE(stats_.notes.empty());
  EXPECT_NE(stats_.notes.back().find("suspect"), std::string::npos);
}

}  // namespace
}  // namespace gs
