#include "runtime/sched/host_health.h"

#include <gtest/gtest.h>

namespace gs {
namespace {

HealthInput Heard(Seconds now, Seconds last) {
  HealthInput in;
  in.now = now;
  in.last_heard = last;
  in.heartbeat_interval = 5;
  in.rtt_bound = 1;
  return in;
}

TEST(HostHealthTest, RecentlyHeardHostIsUp) {
  EXPECT_EQ(ClassifyHealth(Heard(100, 96)), HealthState::kUp);
  // Exactly one interval plus the bound is still on time.
  EXPECT_EQ(ClassifyHealth(Heard(106, 100)), HealthState::kUp);
}

TEST(HostHealthTest, MissedHeartbeatMakesItSuspect) {
  EXPECT_EQ(ClassifyHealth(Heard(106.5, 100)), HealthState::kSuspect);
  EXPECT_EQ(ClassifyHealth(Heard(200, 100)), HealthState::kSuspect);
}

TEST(HostHealthTest, DisconnectedOrUnusableIsDownWhateverItLastSaid) {
  HealthInput in = Heard(100, 100);
  in.connected = false;
  EXPECT_EQ(ClassifyHealth(in), HealthState::kDown);
  in = Heard(100, 100);
  in.usable = false;
  EXPECT_EQ(ClassifyHealth(in), HealthState::kDown);
}

TEST(HostHealthTest, AdapterWithoutHeartbeatsCountsAsUpWhileConnected) {
  HealthInput in;
  in.now = 1e6;
  EXPECT_EQ(ClassifyHealth(in), HealthState::kUp);
  in.heartbeat_interval = 5;  // but never heard: no signal
  EXPECT_EQ(ClassifyHealth(in), HealthState::kUp);
}

TEST(HostHealthTest, NamesAreStable) {
  EXPECT_EQ(HealthStateName(HealthState::kUp), "up");
  EXPECT_EQ(HealthStateName(HealthState::kSuspect), "suspect");
  EXPECT_EQ(HealthStateName(HealthState::kDown), "down");
}

}  // namespace
}  // namespace gs
