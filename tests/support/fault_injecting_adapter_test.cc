#include "tests/support/fault_injecting_adapter.h"

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <optional>

#include "tests/support/fake_clock.h"
#include "tests/support/recording_adapter.h"

namespace gs {
namespace {

using testing::RecordingAdapter;

class FaultInjectingAdapterTest : public ::testing::Test {
 protected:
  FaultInjectingAdapterTest() {
    auto inner = std::make_unique<RecordingAdapter>();
    inner_ = inner.get();
    // What the wrapper reads itself: a connected host without heartbeats.
    inner_->answers.connected = true;
    inner_->answers.heartbeat_interval = 0;
    adapter_ = std::make_unique<FaultInjectingAdapter>(io_, clock_,
                                                       std::move(inner), plan_);
  }

  // The probe's answer, once the io_context delivered it.
  StatusOr<HostProbe> Probe() {
    std::optional<StatusOr<HostProbe>> answer;
    adapter_->Probe([&](StatusOr<HostProbe> p) { answer = std::move(p); });
    io_.restart();
    io_.run();  // runs what is posted, then returns
    EXPECT_TRUE(answer.has_value());
    if (!answer) return Status::Internal("no answer");
    return *answer;
  }

  boost::asio::io_context io_;
  FakeClock clock_;
  std::shared_ptr<FaultPlan> plan_ = std::make_shared<FaultPlan>();
  RecordingAdapter* inner_ = nullptr;
  std::unique_ptr<FaultInjectingAdapter> adapter_;
};

// With no fault set, the wrapper is its adapter (before AdapterWrapper it
// dropped Probe and TakeQueueWaits).
TEST_F(FaultInjectingAdapterTest, WithoutFaultsEveryCallReachesTheAdapter) {
  for (const testing::SeamCall& row : testing::SeamCalls()) {
    SCOPED_TRACE(row.record);
    inner_->calls.clear();
    row.call(*adapter_, *inner_);
    EXPECT_TRUE(inner_->Called(row.record));
  }
}

TEST_F(FaultInjectingAdapterTest, AHostDownOrHungCannotBeProbed) {
  ASSERT_TRUE(Probe().ok());
  plan_->SetDown(true);
  inner_->calls.clear();
  EXPECT_EQ(Probe().status().code(), Status::Code::kUnavailable);
  plan_->SetDown(false);
  plan_->Hang();
  io_.restart();
  io_.run();  // the plan's change reaches the adapter
  EXPECT_EQ(Probe().status().code(), Status::Code::kUnavailable);
  EXPECT_FALSE(inner_->Called("Probe"));
  plan_->Resume();
  io_.restart();
  io_.run();
  EXPECT_TRUE(Probe().ok());
}

}  // namespace
}  // namespace gs
