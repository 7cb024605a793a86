// Paper 002's iterations on volatile hosts through the engine.
#include <gtest/gtest.h>

#include "sim/experiments/sim_experiments.h"

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

TEST(SimVolatileTest, SendingProgramAndDataCostsIterations) {
  VolatileOptions o;
  o.policy = "ie";
  o.deadline = 3000;
  o.seed = 4;
  o.t_prog = 0;
  o.t_data = 0;
  auto free_link = RunVolatile(o);
  o.t_prog = 10;
  o.t_data = 2;
  o.n_com = 5;
  auto bounded = RunVolatile(o);
  o.n_com = 1;  // ten data messages one after the other: >= 20 s each
  auto narrow = RunVolatile(o);
  ASSERT_TRUE(free_link.ok() && bounded.ok() && narrow.ok());
  EXPECT_LT(bounded->iterations, free_link->iterations);
  EXPECT_LT(narrow->iterations, bounded->iterations);
  // No iteration can be shorter than its data messages sent one by one
  // plus its shortest possible computation (10 s).
  EXPECT_LE(narrow->iterations, static_cast<uint64_t>(3000 / (10 * 2 + 10)));
  EXPECT_GT(narrow->iterations, 0u);
  // Every completed iteration had its m data messages, sent or reused.
  EXPECT_GE(narrow->data_sends + narrow->data_reused, narrow->iterations * o.m);
  EXPECT_GT(narrow->program_sends, 0u);
  EXPECT_EQ(free_link->data_sends + free_link->program_sends, 0u);
}

TEST(SimVolatileTest, NegativeTransferTimesAreRefused) {
  VolatileOptions o;
  o.t_data = -1;
  auto r = RunVolatile(o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("--t-data"), std::string::npos);
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
