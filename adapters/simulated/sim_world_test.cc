#include "adapters/simulated/sim_world.h"

#include <gtest/gtest.h>

namespace gs {
namespace {

TEST(SimWorldTest, ParsesATraceAndSortsIt) {
  std::vector<SimHostSpec> hosts(2);
  Status s = ParseAvailabilityTrace(
      "# host time state\n1 20 up\n1 10 down\n0 5 reclaimed  # comment\n",
      "t.trace", &hosts);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(hosts[1].trace.size(), 2u);
  EXPECT_EQ(hosts[1].trace[0].second, SimAvail::kDown);
  EXPECT_DOUBLE_EQ(hosts[1].trace[1].first, 20);
  EXPECT_EQ(hosts[0].trace[0].second, SimAvail::kReclaimed);
}

TEST(SimWorldTest, TraceErrorsNameTheLine) {
  std::vector<SimHostSpec> hosts(1);
  Status s = ParseAvailabilityTrace("0 1 up\n3 2 down\n", "t.trace", &hosts);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("t.trace:2:"), std::string::npos);
  s = ParseAvailabilityTrace("0 1 sleeping\n", "t.trace", &hosts);
  EXPECT_NE(s.message().find("sleeping"), std::string::npos);
}

}  // namespace
}  // namespace gs
