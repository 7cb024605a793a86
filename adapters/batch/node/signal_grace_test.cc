#include "adapters/batch/node/signal_grace.h"

#include <gtest/gtest.h>
#include <signal.h>

#include <vector>

#include "adapters/adapter_defaults.h"
#include "tests/support/fake_clock.h"
#include "tests/support/recording_adapter.h"

namespace gs {
namespace {

// Finishes each job at once with the exit code given by its operation.
class ExitAdapter : public AdapterDefaults {
 public:
  std::string_view kind() const override { return "exit"; }
  Status Connect() override { return Status::Ok(); }
  int FreeSlots() const override { return 4; }
  void Submit(JobSpec spec, DoneCallback done) override {
    JobReport r;
    r.id = spec.id;
    Exited e;
    e.code = std::stoi(spec.operation);
    r.outcome = e;
    done(r);
  }
  void Cancel(JobId) override {}
  void Shutdown() override {}
};

class SignalGraceTest : public ::testing::Test {
 protected:
  void Submit(JobId id, int code) {
    JobSpec spec;
    spec.id = id;
    spec.operation = std::to_string(code);
    grace_.Submit(spec, [this](JobReport r) { reports_.push_back(r); });
  }
  ExitAdapter inner_;
  FakeClock clock_;
  SignalGraceAdapter grace_{inner_, clock_, 2};
  std::vector<JobReport> reports_;
};

TEST_F(SignalGraceTest, OrdinaryOutcomesPassAtOnce) {
  Submit(1, 0);
  Submit(2, 3);
  Submit(3, 128 + SIGSEGV);  // a crash is the application's own
  EXPECT_EQ(reports_.size(), 3u);
}

TEST_F(SignalGraceTest, KillSignalsWaitForTheGracePeriod) {
  Submit(1, 128 + SIGTERM);
  EXPECT_TRUE(reports_.empty());
  EXPECT_EQ(grace_.FreeSlots(), 3) << "a held job keeps its slot";
  clock_.Advance(1.9);
  EXPECT_TRUE(reports_.empty());
  clock_.Advance(0.2);
  ASSERT_EQ(reports_.size(), 1u);
  EXPECT_EQ(std::get<Exited>(reports_[0].outcome).code, 128 + SIGTERM);
}

TEST_F(SignalGraceTest, ShutdownTurnsHeldReportsIntoCancelled) {
  Submit(1, 128 + SIGKILL);
  grace_.Shutdown();
  ASSERT_EQ(reports_.size(), 1u);
  EXPECT_TRUE(std::holds_alternative<Cancelled>(reports_[0].outcome));
  clock_.Advance(5);
  EXPECT_EQ(reports_.size(), 1u);
}

// Only the reports of killed workers are the decorator's; every other call
// is the runner's (before AdapterWrapper, 10 of them were dropped).
TEST(SignalGraceForwardingTest, EverythingElseIsTheRunners) {
  testing::RecordingAdapter inner;
  FakeClock clock;
  SignalGraceAdapter grace(inner, clock);
  for (const testing::SeamCall& row : testing::SeamCalls()) {
    SCOPED_TRACE(row.record);
    inner.calls.clear();
    row.call(grace, inner);
    EXPECT_TRUE(inner.Called(row.record));
  }
}

}  // namespace
}  // namespace gs
