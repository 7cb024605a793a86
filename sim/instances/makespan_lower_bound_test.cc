#include "sim/instances/makespan_lower_bound.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <vector>

#include "sim/instances/etc_generate.h"

namespace gs {
namespace {

EtcMatrix Matrix(size_t tasks, size_t machines, std::vector<Seconds> values) {
  EtcMatrix etc;
  etc.tasks = tasks;
  etc.machines = machines;
  etc.values = std::move(values);
  return etc;
}

// The optimum by trying every mapping (machines^tasks of them).
Seconds BruteForceOptimum(const EtcMatrix& etc) {
  std::vector<size_t> on(etc.tasks, 0);
  Seconds best = std::numeric_limits<Seconds>::max();
  while (true) {
    std::vector<Seconds> load(etc.machines, 0);
    for (size_t t = 0; t < etc.tasks; ++t) load[on[t]] += etc.time(t, on[t]);
    best = std::min(best, *std::max_element(load.begin(), load.end()));
    size_t t = 0;
    while (t < etc.tasks && ++on[t] == etc.machines) on[t++] = 0;
    if (t == etc.tasks) return best;
  }
}

TEST(LpLowerBoundTest, EqualTasksOnIdenticalMachinesSplitEvenly) {
  // 6 unit tasks on 3 machines: the LP and the optimum are both 2.
  auto bound = LpLowerBound(Matrix(6, 3, std::vector<Seconds>(18, 1)));
  ASSERT_TRUE(bound.ok()) << bound.status().message();
  EXPECT_NEAR(*bound, 2, 1e-9);
}

TEST(LpLowerBoundTest, ThresholdKeepsALongTaskWhole) {
  // One task of 10 and one of 1 on two identical machines: the plain LP
  // splits the long task (5.5); forbidding x where p > T gives 10, the
  // optimum.
  auto bound = LpLowerBound(Matrix(2, 2, {10, 10, 1, 1}));
  ASSERT_TRUE(bound.ok());
  EXPECT_NEAR(*bound, 10, 1e-9);
  EXPECT_NEAR(SimpleLowerBound(Matrix(2, 2, {10, 10, 1, 1})), 10, 1e-9);
}

TEST(LpLowerBoundTest, SeesWhatTheSimpleBoundMisses) {
  // Machine 0 is fastest for every task (as in a consistent row): the
  // simple bound divides 4 x 1 by 2 machines (2). The plain LP moves 0.8
  // of a task to machine 1 (4 - 0.8 = 0.8 x 4 = 3.2); below T = 4 a task
  // may not use machine 1 at all, so the strengthened LP gives 4, the
  // optimum (three tasks on machine 0, one on machine 1).
  EtcMatrix etc = Matrix(4, 2, {1, 4, 1, 4, 1, 4, 1, 4});
  auto bound = LpLowerBound(etc);
  ASSERT_TRUE(bound.ok());
  EXPECT_NEAR(SimpleLowerBound(etc), 2, 1e-9);
  EXPECT_NEAR(*bound, 4, 1e-9);
  EXPECT_NEAR(BruteForceOptimum(etc), 4, 1e-9);
}

TEST(LpLowerBoundTest, NeverAboveTheOptimumAndNeverBelowTheSimpleBound) {
  for (const char* name : {"u_c_hihi", "u_s_lohi", "u_i_hilo", "u_i_lolo"}) {
    for (uint64_t seed = 1; seed <= 5; ++seed) {
      EtcMatrix etc = GenerateEtc(7, 3, *ParseEtcClass(name), seed);
      auto bound = LpLowerBound(etc);
      ASSERT_TRUE(bound.ok()) << bound.status().message();
      Seconds optimum = BruteForceOptimum(etc);
      EXPECT_LE(*bound, optimum * (1 + 1e-9)) << name << " seed " << seed;
      EXPECT_GE(*bound, SimpleLowerBound(etc) * (1 - 1e-9))
          << name << " seed " << seed;
    }
  }
}

TEST(LpLowerBoundTest, EmptyInstance) {
  auto bound = LpLowerBound(Matrix(0, 3, {}));
  ASSERT_TRUE(bound.ok());
  EXPECT_EQ(*bound, 0);
}

}  // namespace
}  // namespace gs
