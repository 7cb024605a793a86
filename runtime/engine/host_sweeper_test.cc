#include "runtime/engine/host_sweeper.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tests/support/fake_clock.h"
#include "tests/support/recording_adapter.h"

namespace gs {
namespace {

using testing::RecordingAdapter;

// A host's adapter: records calls; its probe answers or not, its
// reconnect succeeds or not.
class HostAdapter : public RecordingAdapter {
 public:
  bool answers_probe = true;
  bool reconnects = false;
  void Probe(ProbeCallback done) override {
    calls.push_back("Probe");
    if (answers_probe) done(HostProbe{});
  }
  void Reconnect(std::function<void(Status)> done) override {
    calls.push_back("Reconnect");
    done(reconnects ? Status::Ok() : Status::Unavailable("still down"));
  }
  bool Called(const std::string& call) const {
    return std::find(calls.begin(), calls.end(), call) != calls.end();
  }
};

// The engine as the sweeper sees it: posted work runs, and the fake clock
// moves, only while the master waits (the engine thread's turn).
struct FakeEngine {
  FakeClock clock;
  HostSet* hosts = nullptr;
  HostSweeper* sweeper = nullptr;
  std::vector<std::function<void()>> posted;
  std::vector<std::pair<HostId, std::string>> resumed;
  int removals = 0;
  int waits = 0;
  std::vector<std::string> lost;  // "host: why"
  std::vector<std::pair<HostId, bool>> answered;
};

class FakeSite : public HostSweeper::Site {
 public:
  explicit FakeSite(FakeEngine* e) : e_(*e) {}
  bool Stopping() const override { return false; }
  void Post(std::function<void()> fn) override {
    e_.posted.push_back(std::move(fn));
  }
  std::vector<std::string> KeptFiles(HostId h) const override {
    return {std::to_string(h) + "-kept"};
  }
  std::vector<std::pair<HostId, std::string>> ResumedCopies() const override {
    return e_.resumed;
  }
  void RemoveRemoteCopies() override { ++e_.removals; }
  void Reconnect(HostId h) override {
    (*e_.hosts)[h]->adapter->Reconnect(
        [this, h](Status s) { e_.sweeper->ReconnectEnded(h, s); });
  }
  void ReconnectAnswered(HostId h, bool ok) override {
    e_.answered.push_back({h, ok});
    if (ok) (*e_.hosts)[h]->usable = true;
  }
  void RecordHostLost(HostId h, const std::string& why) override {
    e_.lost.push_back(std::to_string(h) + ": " + why);
  }
  void Wait(MutexLock& lock, Seconds bound,
            std::function<bool()> done) override {
    ++e_.waits;
    const Seconds end = e_.clock.Now() + bound;
    while (!done() && e_.clock.Now() < end) {
      lock.Unlock();
      if (!e_.posted.empty()) {
        std::function<void()> fn = std::move(e_.posted.front());
        e_.posted.erase(e_.posted.begin());
        fn();
      } else {
        e_.clock.Advance(0.25);
      }
      lock.Lock();
    }
  }
  void NotifyWaiters() override {}

 private:
  FakeEngine& e_;
};

// Hosts: 0 "h0" shares the master's files, 1 "h1" and 2 "h2" keep their
// own; all usable and connected unless a test says otherwise.
class HostSweeperTest : public ::testing::Test {
 protected:
  HostSweeperTest() {
    for (int h = 0; h < 3; ++h) {
      auto entry = std::make_unique<HostEntry>();
      entry->name = "h" + std::to_string(h);
      entry->shared = h == 0;
      auto adapter = std::make_unique<HostAdapter>();
      adapter->answers.connected = true;
      adapters_.push_back(adapter.get());
      entry->adapter = std::move(adapter);
      hosts_.Add(std::move(entry));
    }
    engine_.hosts = &hosts_;
    Make(false);
  }

  void Make(bool virtual_time) {
    sweeper_ = std::make_unique<HostSweeper>(
        "m:/w", virtual_time, hosts_, mu_, stats_, messages_,
        std::make_unique<FakeSite>(&engine_));
    sweeper_->set_clock(&engine_.clock);
    engine_.sweeper = sweeper_.get();
  }

  void FinalSweep() {
    MutexLock lock(&mu_);
    sweeper_->FinalSweep(lock);
  }

  bool HasNote(const std::string& part) const {
    for (const std::string& note : stats_.notes) {
      if (note.find(part) != std::string::npos) return true;
    }
    return false;
  }

  HostSet hosts_{1};
  std::vector<HostAdapter*> adapters_;
  Mutex mu_;
  RunStats stats_;
  RecordingMessages messages_;
  FakeEngine engine_;
  std::unique_ptr<HostSweeper> sweeper_;
};

TEST_F(HostSweeperTest, OwnerIsThisMachineAndTheWorkDir) {
  const std::string owner = HostSweeper::OwnerOf("/w");
  EXPECT_GT(owner.size(), 3u);
  EXPECT_EQ(owner.substr(owner.size() - 3), ":/w");
}

TEST_F(HostSweeperTest, AtStartHostsKeepingTheirFilesAreSweptKeepingResumes) {
  engine_.resumed = {{1, "5-x"}};
  hosts_[2]->usable = false;
  sweeper_->SweepAtStart();
  EXPECT_TRUE(adapters_[1]->Called("Sweep m:/w 5-x"));
  EXPECT_FALSE(adapters_[0]->Called("Sweep m:/w")) << "shared: nothing left";
  EXPECT_FALSE(adapters_[2]->Called("Sweep m:/w")) << "not connected";
}

TEST_F(HostSweeperTest, AHostBackIsSweptOfAllButTheCopiesTheRunCountsOn) {
  hosts_[1]->left_behind = true;
  sweeper_->SweepHost(1);
  EXPECT_TRUE(adapters_[1]->Called("Sweep m:/w 1-kept"));
  EXPECT_FALSE(hosts_[1]->left_behind);
}

TEST_F(HostSweeperTest, AtGsOffEveryHostConfirmsTheLastRemovals) {
  FinalSweep();
  EXPECT_EQ(engine_.removals, 1);
  EXPECT_TRUE(adapters_[1]->Called("Probe"));
  EXPECT_TRUE(adapters_[2]->Called("Probe"));
  EXPECT_FALSE(adapters_[0]->Called("Probe"));
  EXPECT_TRUE(hosts_[1]->usable);
  EXPECT_TRUE(hosts_[2]->usable);
  EXPECT_TRUE(engine_.lost.empty());
  EXPECT_TRUE(stats_.notes.empty());
  EXPECT_TRUE(engine_.posted.empty());
}

TEST_F(HostSweeperTest, AHostThatDoesNotConfirmIsLostAndTriedUntilTheEnd) {
  adapters_[2]->answers_probe = false;
  FinalSweep();
  ASSERT_EQ(engine_.lost.size(), 1u);
  EXPECT_EQ(engine_.lost[0], "2: no answer in 5 s to the run's last removals");
  EXPECT_FALSE(hosts_[2]->usable);
  EXPECT_TRUE(hosts_[2]->left_behind);
  EXPECT_TRUE(HasNote("host h2 was lost (no answer in 5 s"));
  // Tried again every quarter second for the final sweep's 5 s, then
  // named as left with what the run put there.
  const auto tries = std::count(adapters_[2]->calls.begin(),
                                adapters_[2]->calls.end(), "Reconnect");
  EXPECT_GE(tries, 10);
  EXPECT_LE(tries, 21);
  EXPECT_FALSE(hosts_[2]->final_try);
  EXPECT_TRUE(HasNote("host h2 did not answer again"));
  EXPECT_TRUE(messages_.Has(MessageKind::kHostEvent, "trying host h2 again"))
      << messages_.AllText();
  EXPECT_FALSE(HasNote("host h1"));
}

TEST_F(HostSweeperTest, ALostHostThatComesBackAtGsOffIsSwept) {
  hosts_[2]->usable = false;
  hosts_[2]->left_behind = true;
  adapters_[2]->reconnects = true;
  FinalSweep();
  EXPECT_EQ(engine_.answered,
            (std::vector<std::pair<HostId, bool>>{{2, true}}));
  EXPECT_TRUE(adapters_[2]->Called("Sweep m:/w 2-kept"));
  EXPECT_FALSE(hosts_[2]->left_behind);
  EXPECT_FALSE(hosts_[2]->final_try);
  EXPECT_FALSE(HasNote("did not answer again"));
}

TEST_F(HostSweeperTest, AConnectionThatEndedUnnoticedIsTakenForLost) {
  adapters_[1]->answers.connected = false;
  FinalSweep();
  ASSERT_EQ(engine_.lost.size(), 1u);
  EXPECT_EQ(engine_.lost[0], "1: its connection had ended");
  EXPECT_TRUE(adapters_[1]->Called("Reconnect"));
  EXPECT_TRUE(HasNote("host h1 did not answer again"));
}

TEST_F(HostSweeperTest, OrdinaryReconnectsAndVirtualTimeAreLeftAlone) {
  EXPECT_FALSE(sweeper_->ReconnectEnded(1, Status::Ok()));
  Make(/*virtual_time=*/true);
  FinalSweep();
  EXPECT_EQ(engine_.removals, 0);
  EXPECT_EQ(engine_.waits, 0);
  EXPECT_TRUE(adapters_[1]->calls.empty() || !adapters_[1]->Called("Probe"));
}

}  // namespace
}  // namespace gs
