#include "adapters/simulated/sim_config.h"

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <chrono>
#include <optional>

#include "runtime/base/asio_clock.h"
#include "runtime/base/virtual_clock.h"

namespace gs {
namespace {

TEST(SimConfigTest, AConfiguredHostRunsJobsInRealTime) {
  boost::asio::io_context io;
  AsioClock clock(io);
  auto a = MakeConfiguredSimAdapter(
      "s1", 2, {{"time", "0.05"}, {"time.slow", "4"}, {"speed", "2"}}, clock);
  ASSERT_TRUE(a.ok()) << a.status().message();
  Adapter& adapter = **a;
  ASSERT_TRUE(adapter.Connect().ok());
  EXPECT_EQ(adapter.FreeSlots(), 2);
  EXPECT_FALSE(adapter.shares_master_files());
  std::optional<JobReport> report;
  JobSpec spec;
  spec.id = 1;
  spec.operation = "fast";
  adapter.Submit(spec, [&](JobReport r) { report = r; });
  EXPECT_FALSE(report);  // never from inside Submit
  auto t0 = std::chrono::steady_clock::now();
  io.run_for(std::chrono::seconds(5));
  ASSERT_TRUE(report);
  auto* exited = std::get_if<Exited>(&report->outcome);
  ASSERT_TRUE(exited);
  EXPECT_TRUE(exited->succeeded());
  // 0.05 s at speed 2.
  EXPECT_NEAR(report->ended - report->started, 0.025, 0.02);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5));
}

TEST(SimConfigTest, PerOperationTimesInVirtualTime) {
  VirtualClock clock;
  auto a = MakeConfiguredSimAdapter("s1", 1, {{"time.slow", "4"}}, clock);
  ASSERT_TRUE(a.ok());
  ASSERT_TRUE((*a)->Connect().ok());
  std::optional<JobReport> report;
  JobSpec spec;
  spec.id = 7;
  spec.operation = "slow";
  (*a)->Submit(spec, [&](JobReport r) { report = r; });
  while (clock.RunNext()) {
  }
  ASSERT_TRUE(report);
  EXPECT_DOUBLE_EQ(report->ended, 4);
}

TEST(SimConfigTest, BadParametersNameTheHostAndKey) {
  VirtualClock clock;
  auto a = MakeConfiguredSimAdapter("s9", 1, {{"sped", "2"}}, clock);
  ASSERT_FALSE(a.ok());
  EXPECT_NE(a.status().message().find("host 's9': sim.sped"),
            std::string::npos);
  a = MakeConfiguredSimAdapter("s9", 1, {{"latency", "-1"}}, clock);
  ASSERT_FALSE(a.ok());
  EXPECT_NE(a.status().message().find("sim.latency"), std::string::npos);
}

}  // namespace
}  // namespace gs
