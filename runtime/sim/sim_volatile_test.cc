// Paper 002's iterations on volatile hosts through the engine.
#include <gtest/gtest.h>

#include "runtime/sim/sim_experiments.h"

namespace gs {
namespace {

TEST(SimVolatileTest, PassiveAndProactiveRunsCompleteIterations) {
  for (const char* policy : {"ip", "ie", "iy", "iay", "y-ie", "e-iy"}) {
    VolatileOptions o;
    o.policy = policy;
    o.deadline = 3000;
    o.seed = 4;
    auto a = RunVolatile(o);
    ASSERT_TRUE(a.ok()) << a.status().message();
    EXPECT_GT(a->iterations, 10u) << policy;
    // Every completed iteration ran its m tasks.
    EXPECT_GE(a->run.tasks_done, a->iterations * o.m) << policy;
    auto b = RunVolatile(o);
    ASSERT_TRUE(b.ok());
    EXPECT_EQ(a->iterations, b->iterations) << policy;
    EXPECT_EQ(a->run.events, b->run.events) << policy;
  }
}

TEST(SimVolatileTest, AGangMemberLostLosesTheIteration) {
  VolatileOptions o;
  o.policy = "ie";
  o.deadline = 20000;
  o.seed = 9;
  auto r = RunVolatile(o);
  ASSERT_TRUE(r.ok());
  ASSERT_GT(r->run.job_failures, 0u);
  // Jobs stopped with their gang are cancelled, not failed: more jobs ran
  // than tasks plus failures.
  EXPECT_GT(r->run.jobs, r->run.tasks + r->run.job_failures);
  EXPECT_GT(r->run.wasted_cpu, 0);
}

TEST(SimBotTest, RunsWithMarkovFailuresAreDeterministic) {
  BotOptions o;
  o.hosts = 20;
  o.tasks = 300;
  o.mtbf = 2000;
  o.mttr = 200;
  o.seed = 5;
  auto a = RunBot(o);
  auto b = RunBot(o);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->tasks_done, 300u);
  EXPECT_GT(a->host_downs, 0u);
  // Time stops at GS_Off: the availability processes, which never end,
  // do not run on by a varying amount.
  EXPECT_EQ(a->host_downs, b->host_downs);
  EXPECT_EQ(a->events, b->events);
  EXPECT_DOUBLE_EQ(a->makespan, b->makespan);
}

}  // namespace
}  // namespace gs
