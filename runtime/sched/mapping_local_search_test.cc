#include "runtime/sched/mapping_local_search.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace gs {
namespace {

Seconds Makespan(const LocalSearchInput& in, const std::vector<HostId>& on) {
  auto ends = HostEnds(in, on);
  return *std::max_element(ends.begin(), ends.end());
}

TEST(MappingLocalSearchTest, AMoveOffTheLastHostShortensTheMakespan) {
  // Two identical one-slot hosts; all three tasks on host 0.
  LocalSearchInput in;
  in.ready = {0, 0};
  in.slots = {1, 1};
  in.time = {4, 4, 3, 3, 2, 2};
  std::vector<HostId> on = {0, 0, 0};
  EXPECT_EQ(Makespan(in, on), 9);
  EXPECT_GT(ImproveMapping(in, &on), 0u);
  EXPECT_EQ(Makespan(in, on), 5);  // {4} and {3, 2}, the optimum
}

TEST(MappingLocalSearchTest, ASwapWhereNoMoveHelps) {
  // Each task is fast on the host it is not on: moving either makes the
  // other host end at 11, swapping them ends both at 1.
  LocalSearchInput in;
  in.ready = {0, 0};
  in.slots = {1, 1};
  in.time = {10, 1,   // x: time on host 0, on host 1
             1, 10};  // y
  std::vector<HostId> on = {0, 1};
  EXPECT_EQ(Makespan(in, on), 10);
  EXPECT_EQ(ImproveMapping(in, &on), 1u);
  EXPECT_EQ(on, (std::vector<HostId>{1, 0}));
  EXPECT_EQ(Makespan(in, on), 1);
}

TEST(MappingLocalSearchTest, StopsAtTheBoundAndKeepsEveryTaskPlaced) {
  LocalSearchInput in;
  in.ready = {0, 10, 0};
  in.slots = {1, 1, 0};  // host 2 is not usable
  in.time.assign(20 * 3, 1);
  std::vector<HostId> on(20, 0);
  in.max_moves = 3;
  EXPECT_EQ(ImproveMapping(in, &on), 3u);
  for (HostId h : on) EXPECT_NE(h, 2u);
  in.max_moves = 0;
  ImproveMapping(in, &on);
  EXPECT_EQ(Makespan(in, on), 15);  // 15 on host 0, 10 + 5 on host 1
}

}  // namespace
}  // namespace gs
