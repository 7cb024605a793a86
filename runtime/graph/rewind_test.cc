#include "runtime/graph/rewind.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "runtime/graph/rewind_test_util.h"

namespace gs {
namespace {

using ::testing::ElementsAre;
using testing::ExpectPlanProperties;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using testing::RewindGraph;
using testing::State;

constexpr HostId kMasterHost = 0;
constexpr HostId kP1 = 1, kP2 = 2, kP3 = 3, kP4 = 4;

RewindPlan Plan(const RewindGraph& g, HostId lost, RewindMode mode) {
  StatusOr<RewindPlan> plan = PlanRewind(g.tasks, g.versions, lost, mode);
  EXPECT_TRUE(plan.ok()) << plan.status().ToString();
  if (!plan.ok()) return {};
  ExpectPlanProperties(g, lost, mode, *plan, "Plan");
  return *plan;
}

// Figure 2 of paper 000 at RP_{n+2}: v0 and v2 finished on p3, v1 finished
// on p1, v3 placed on p4 and still retrieving v2's result; p3 fails. Edges
// e(v0,v1), e(v0,v2), e(v2,v3) and e(v1,v3) (v3 receives "the required
// inputs"). For GTP/c/r the paper keeps a reusable copy of v2's result on p2
// and a copy for e(v2,v3) on p3.
struct Figure2 {
  RewindGraph g;
  uint32_t v0, v1, v2, v3, r0, r1, r2;
  explicit Figure2(bool copy_on_p2) {
    v0 = g.Task(State::kDone, kP3, {});
    r0 = g.Output(v0, {kP3});
    v1 = g.Task(State::kDone, kP1, {r0});
    r1 = g.Output(v1, {kP1});
    v2 = g.Task(State::kDone, kP3, {r0});
    r2 = g.Output(v2, copy_on_p2 ? std::vector<HostId>{kP3, kP2}
                                 : std::vector<HostId>{kP3});
    v3 = g.Task(State::kRunning, kP4, {r1, r2});
  }
};

TEST(RewindFigure2Test, GtpRRewindsV2ThenV0) {
  Figure2 f(/*copy_on_p2=*/false);
  RewindPlan plan = Plan(f.g, kP3, RewindMode::kGtpR);
  // v2 first (v3 has not received its result), then v0 (its successor v2 is
  // rewound; e(v0,v1) is satisfied since v1 finished on p1).
  EXPECT_THAT(plan.rewound, ElementsAre(f.v2, f.v0));
  EXPECT_EQ(plan.rt, 2u);
  EXPECT_EQ(plan.rt_finished, 2u);
  EXPECT_EQ(plan.rt_interrupted, 0u);
  EXPECT_EQ(plan.lr, 2u);  // Level(v0) = 0, Level(v2) = 1.
  EXPECT_THAT(plan.dropped, ElementsAre(f.r0, f.r2));
  EXPECT_THAT(plan.stalled, ElementsAre(f.v3));  // keeps p4, waits for v2
  EXPECT_THAT(plan.unrecoverable, IsEmpty());
}

TEST(RewindFigure2Test, GtpRIgnoresTheCopyOnP2) {
  Figure2 f(/*copy_on_p2=*/true);
  RewindPlan plan = Plan(f.g, kP3, RewindMode::kGtpR);
  EXPECT_THAT(plan.rewound, ElementsAre(f.v2, f.v0));
  EXPECT_EQ(plan.lr, 2u);
}

TEST(RewindFigure2Test, GtpCRRewindsNothingThanksToTheCopyOnP2) {
  Figure2 f(/*copy_on_p2=*/true);
  RewindPlan plan = Plan(f.g, kP3, RewindMode::kGtpCR);
  EXPECT_THAT(plan.rewound, IsEmpty());
  EXPECT_EQ(plan.rt, 0u);
  EXPECT_EQ(plan.lr, 0u);
  // The copies held by p3 are deleted, Omega_l(v2,v3) among them.
  EXPECT_THAT(plan.dropped, ElementsAre(f.r0, f.r2));
  EXPECT_THAT(plan.stalled, IsEmpty());  // v3 reads v2's result from p2
}

TEST(RewindFigure2Test, GtpCRWithoutTheCopyBehavesLikeGtpR) {
  Figure2 f(/*copy_on_p2=*/false);
  RewindPlan plan = Plan(f.g, kP3, RewindMode::kGtpCR);
  EXPECT_THAT(plan.rewound, ElementsAre(f.v2, f.v0));
}

TEST(RewindFigure2Test, GtpCRUsesTheCopyV1ReceivedOnP1) {
  // v1 received v0's result on p1; in GTP/c/r that copy is enough for the
  // rewound v2, so only v2 is recomputed. GTP/r still rewinds v0 too.
  Figure2 f(/*copy_on_p2=*/false);
  f.g.versions[f.r0].copies.push_back(kP1);
  EXPECT_THAT(Plan(f.g, kP3, RewindMode::kGtpCR).rewound, ElementsAre(f.v2));
  EXPECT_THAT(Plan(f.g, kP3, RewindMode::kGtpR).rewound,
              ElementsAre(f.v2, f.v0));
}

TEST(RewindFigure2Test, NothingToDoWhenV3HasAllItsInputs) {
  // kappa^d(v2,v3) = 1: v3 holds v2's result on p4, so rule 1 does not hold
  // for v2, nor rule 2 for v0.
  Figure2 f(/*copy_on_p2=*/false);
  f.g.versions[f.r2].copies.push_back(kP4);
  for (RewindMode mode : {RewindMode::kGtpR, RewindMode::kGtpCR}) {
    RewindPlan plan = Plan(f.g, kP3, mode);
    EXPECT_THAT(plan.rewound, IsEmpty());
    EXPECT_THAT(plan.stalled, IsEmpty());
  }
}

// (a) The only copy of an intermediate version a pending task needs was on
// the lost host: its producer rewinds, and so does the producer's producer
// when its inputs were only there too.
TEST(RewindTest, OnlyCopyOnLostHostRewindsProducerRecursively) {
  RewindGraph g;
  uint32_t in = g.MasterVersion({kMasterHost});
  uint32_t a = g.Task(State::kDone, kP1, {in});
  uint32_t va = g.Output(a, {kP1});
  uint32_t b = g.Task(State::kDone, kP1, {va});
  uint32_t vb = g.Output(b, {kP1});
  uint32_t c = g.Task(State::kPending, RewindTask::kUnplaced, {vb});
  for (RewindMode mode : {RewindMode::kGtpR, RewindMode::kGtpCR}) {
    RewindPlan plan = Plan(g, kP1, mode);
    EXPECT_THAT(plan.rewound, ElementsAre(b, a));
    EXPECT_EQ(plan.lr, 2u);
    EXPECT_THAT(plan.dropped, ElementsAre(va, vb));
  }
  // When a's output also lives elsewhere, the recursion stops at b (c/r).
  g.versions[va].copies.push_back(kP2);
  EXPECT_THAT(Plan(g, kP1, RewindMode::kGtpCR).rewound, ElementsAre(b));
  EXPECT_THAT(Plan(g, kP1, RewindMode::kGtpR).rewound, ElementsAre(b, a));
  (void)c;
}

// (b) A copy on another host or on the master avoids the rewind in GTP/c/r.
TEST(RewindTest, CopyElsewhereAvoidsRewindInGtpCR) {
  for (HostId elsewhere : {kMasterHost, kP2}) {
    RewindGraph g;
    uint32_t a = g.Task(State::kDone, kP1, {});
    uint32_t va = g.Output(a, {kP1, elsewhere});
    g.Task(State::kPending, RewindTask::kUnplaced, {va});
    RewindPlan cr = Plan(g, kP1, RewindMode::kGtpCR);
    EXPECT_THAT(cr.rewound, IsEmpty()) << "copy on host " << elsewhere;
    EXPECT_THAT(cr.dropped, ElementsAre(va));
    // GTP/r does not use copies: a was placed on the lost host.
    EXPECT_THAT(Plan(g, kP1, RewindMode::kGtpR).rewound, ElementsAre(a));
  }
}

// (c) Versions no unfinished task needs never cause a rewind.
TEST(RewindTest, VersionsNobodyNeedsCauseNoRewind) {
  RewindGraph g;
  uint32_t a = g.Task(State::kDone, kP1, {});
  uint32_t va = g.Output(a, {kP1});
  g.Output(a, {kP1});                            // never read
  uint32_t b = g.Task(State::kDone, kP2, {va});  // already consumed va
  g.Output(b, {kP2});
  uint32_t f = g.Task(State::kFailed, RewindTask::kUnplaced, {va});
  (void)f;
  for (RewindMode mode : {RewindMode::kGtpR, RewindMode::kGtpCR}) {
    RewindPlan plan = Plan(g, kP1, mode);
    EXPECT_THAT(plan.rewound, IsEmpty());
    EXPECT_EQ(plan.rt, 0u);
    EXPECT_EQ(plan.lr, 0u);
  }
}

TEST(RewindTest, JobsRunningOnLostHostAreRewoundAndCounted) {
  RewindGraph g;
  uint32_t a = g.Task(State::kDone, kP1, {});
  uint32_t va = g.Output(a, {kP1});
  uint32_t r = g.Task(State::kRunning, kP1, {va});  // output read by nobody
  g.Output(r, {});
  uint32_t s = g.Task(State::kRunning, kP2, {});  // elsewhere: untouched
  g.Output(s, {});
  for (RewindMode mode : {RewindMode::kGtpR, RewindMode::kGtpCR}) {
    RewindPlan plan = Plan(g, kP1, mode);
    // r must rerun and needs va, whose only copy was on p1: a rewinds too.
    EXPECT_THAT(plan.rewound, ElementsAre(r, a));
    EXPECT_EQ(plan.rt, 2u);
    EXPECT_EQ(plan.rt_interrupted, 1u);
    EXPECT_EQ(plan.rt_finished, 1u);
  }
}

TEST(RewindTest, RunningReaderThatHoldsItsInputIsSatisfied) {
  RewindGraph g;
  uint32_t a = g.Task(State::kDone, kP1, {});
  uint32_t va = g.Output(a, {kP1, kP2});  // staged to p2 for b
  uint32_t b = g.Task(State::kRunning, kP2, {va});
  g.Output(b, {});
  RewindPlan plan = Plan(g, kP1, RewindMode::kGtpR);
  EXPECT_THAT(plan.rewound, IsEmpty());
  EXPECT_THAT(plan.stalled, IsEmpty());
  // A second, pending reader has not received it: GTP/r rewinds a.
  g.Task(State::kPending, RewindTask::kUnplaced, {va});
  EXPECT_THAT(Plan(g, kP1, RewindMode::kGtpR).rewound, ElementsAre(a));
  EXPECT_THAT(Plan(g, kP1, RewindMode::kGtpCR).rewound, IsEmpty());
}

TEST(RewindTest, ResultMovedAwayFromItsProducerIsStillRecomputed) {
  // The producer ran on p2 but the only copy left is on p1 (the data layer
  // moved it). The paper's Q(p1) does not contain the producer; gsrt rewinds
  // it anyway, since nothing else can bring the version back.
  RewindGraph g;
  uint32_t a = g.Task(State::kDone, kP2, {});
  uint32_t va = g.Output(a, {kP1});
  g.Task(State::kPending, RewindTask::kUnplaced, {va});
  for (RewindMode mode : {RewindMode::kGtpR, RewindMode::kGtpCR}) {
    EXPECT_THAT(Plan(g, kP1, mode).rewound, ElementsAre(a));
  }
}

TEST(RewindTest, MasterVersionOnlyOnLostHostIsUnrecoverable) {
  RewindGraph g;
  uint32_t in = g.MasterVersion({kP1});
  uint32_t kept = g.MasterVersion({kP1, kMasterHost});
  uint32_t t = g.Task(State::kPending, RewindTask::kUnplaced, {in, kept});
  for (RewindMode mode : {RewindMode::kGtpR, RewindMode::kGtpCR}) {
    RewindPlan plan = Plan(g, kP1, mode);
    EXPECT_THAT(plan.rewound, IsEmpty());
    EXPECT_THAT(plan.unrecoverable, ElementsAre(in));
    EXPECT_THAT(plan.dropped, ElementsAre(in, kept));
  }
  (void)t;
}

TEST(RewindTest, LevelsAreLongestPathsFromTheSources) {
  RewindGraph g;
  uint32_t a = g.Task(State::kDone, kP1, {});
  uint32_t va = g.Output(a, {kP1});
  uint32_t b = g.Task(State::kDone, kP1, {va});
  uint32_t vb = g.Output(b, {kP1});
  uint32_t c = g.Task(State::kDone, kP1, {va, vb});  // paths of 1 and 2 edges
  (void)c;
  StatusOr<std::vector<uint32_t>> levels = TaskLevels(g.tasks, g.versions);
  ASSERT_TRUE(levels.ok()) << levels.status().ToString();
  EXPECT_THAT(*levels, ElementsAre(0u, 1u, 2u));
}

TEST(RewindTest, LevelsRewoundSpansTheRewoundTasks) {
  // Rewound tasks at levels 0 and 3 with unrewound ones between: LR = 4.
  RewindGraph g;
  uint32_t a = g.Task(State::kDone, kP1, {});
  uint32_t va = g.Output(a, {kP1});
  uint32_t b = g.Task(State::kDone, kP2, {va});
  uint32_t vb = g.Output(b, {kP2});
  uint32_t c = g.Task(State::kDone, kP2, {vb});
  uint32_t vc = g.Output(c, {kP2});
  uint32_t d = g.Task(State::kRunning, kP1, {vc});
  g.Output(d, {});
  g.Task(State::kPending, RewindTask::kUnplaced, {va});
  RewindPlan plan = Plan(g, kP1, RewindMode::kGtpCR);
  EXPECT_THAT(plan.rewound, ElementsAre(d, a));
  EXPECT_EQ(plan.lr, 4u);
}

TEST(RewindTest, RejectsMalformedInput) {
  auto error = [](const RewindGraph& g) {
    StatusOr<RewindPlan> plan =
        PlanRewind(g.tasks, g.versions, kP1, RewindMode::kGtpCR);
    EXPECT_FALSE(plan.ok());
    return plan.ok() ? std::string() : plan.status().message();
  };
  {
    RewindGraph g;
    g.Task(State::kPending, RewindTask::kUnplaced, {7});
    EXPECT_THAT(error(g), HasSubstr("task 0 reads version 7"));
  }
  {
    RewindGraph g;
    uint32_t a = g.Task(State::kDone, kP1, {});
    g.Task(State::kDone, kP1, {});
    g.Output(a, {kP1});
    g.tasks[1].outputs.push_back(0);
    EXPECT_THAT(error(g), HasSubstr("task 1 writes version 0"));
  }
  {
    RewindGraph g;
    g.versions.push_back({3, {}});
    EXPECT_THAT(error(g), HasSubstr("version 0 names task 3"));
  }
  {
    RewindGraph g;
    g.Task(State::kDone, kP1, {});
    g.versions.push_back({0, {}});  // producer does not list it
    EXPECT_THAT(error(g), HasSubstr("listed 0 times"));
  }
  {
    RewindGraph g;
    g.Task(State::kRunning, RewindTask::kUnplaced, {});
    EXPECT_THAT(error(g), HasSubstr("running but has no host"));
  }
  {
    RewindGraph g;
    uint32_t a = g.Task(State::kDone, kP1, {});
    uint32_t b = g.Task(State::kDone, kP1, {});
    uint32_t va = g.Output(a, {kP1});
    uint32_t vb = g.Output(b, {kP1});
    g.tasks[a].inputs.push_back(vb);
    g.tasks[b].inputs.push_back(va);
    EXPECT_THAT(error(g), HasSubstr("cycle"));
  }
}

// A random DAG in index (topological) order with a consistent state: tasks
// finish before their readers start, results stay on their producer's host
// (mostly), extra copies appear on random hosts, and running tasks have
// received part of their inputs.
RewindGraph RandomGraph(std::mt19937& rng, HostId num_hosts) {
  auto coin = [&rng](double p) { return std::bernoulli_distribution(p)(rng); };
  auto pick = [&rng](size_t n) {
    return std::uniform_int_distribution<size_t>(0, n - 1)(rng);
  };
  auto worker = [&] { return static_cast<HostId>(1 + pick(num_hosts)); };
  RewindGraph g;
  int n_files = 1 + static_cast<int>(pick(4));
  for (int i = 0; i < n_files; ++i) {
    std::vector<HostId> copies;
    if (!coin(0.1)) copies.push_back(kMasterHost);
    if (coin(0.3)) copies.push_back(worker());
    g.MasterVersion(copies);
  }
  int n = 20 + static_cast<int>(pick(41));
  double p_done = std::uniform_real_distribution<double>(0.2, 0.9)(rng);
  for (int t = 0; t < n; ++t) {
    std::vector<uint32_t> inputs;
    int n_in = static_cast<int>(pick(4));
    for (int i = 0; i < n_in; ++i) {
      // Favour recent versions so chains get long.
      size_t nv = g.versions.size();
      size_t back = std::min(nv, size_t{12});
      uint32_t v =
          static_cast<uint32_t>(coin(0.7) ? nv - 1 - pick(back) : pick(nv));
      if (!testing::Contains(inputs, v)) inputs.push_back(v);
    }
    bool inputs_done = true;
    for (uint32_t v : inputs) {
      uint32_t p = g.versions[v].producer;
      if (p != RewindVersion::kMaster && g.tasks[p].state != State::kDone) {
        inputs_done = false;
      }
    }
    State state = State::kPending;
    if (inputs_done) {
      state = coin(p_done) ? State::kDone
              : coin(0.5)  ? State::kRunning
                           : State::kPending;
    }
    HostId host = state == State::kPending ? RewindTask::kUnplaced : worker();
    uint32_t id = g.Task(state, host, inputs);
    if (state != State::kPending) {
      for (uint32_t v : inputs) {
        // Done tasks got every input on their host; running ones some.
        if ((state == State::kDone || coin(0.5)) &&
            !testing::HasCopy(g.versions[v], host) && coin(0.8)) {
          g.versions[v].copies.push_back(host);
        }
      }
    }
    int n_out = 1 + static_cast<int>(pick(2));
    for (int o = 0; o < n_out; ++o) {
      std::vector<HostId> copies;
      if (state == State::kDone) {
        if (!coin(0.05)) copies.push_back(host);
        if (coin(0.25)) copies.push_back(coin(0.3) ? kMasterHost : worker());
      }
      g.Output(id, copies);
    }
  }
  return g;
}

TEST(RewindPropertyTest, RandomDags) {
  std::mt19937 rng(20071017);
  int rewound_something = 0, cr_strictly_smaller = 0;
  for (int i = 0; i < 200; ++i) {
    HostId num_hosts = 2 + static_cast<HostId>(rng() % 5);
    RewindGraph g = RandomGraph(rng, num_hosts);
    // Mostly a worker; sometimes the master itself.
    HostId lost = rng() % 10 == 0 ? kMasterHost : 1 + rng() % num_hosts;
    std::string where =
        "graph " + std::to_string(i) + " lost host " + std::to_string(lost);
    StatusOr<RewindPlan> r =
        PlanRewind(g.tasks, g.versions, lost, RewindMode::kGtpR);
    StatusOr<RewindPlan> cr =
        PlanRewind(g.tasks, g.versions, lost, RewindMode::kGtpCR);
    ASSERT_TRUE(r.ok()) << where << ": " << r.status().ToString();
    ASSERT_TRUE(cr.ok()) << where << ": " << cr.status().ToString();
    ExpectPlanProperties(g, lost, RewindMode::kGtpR, *r, where + " GTP/r");
    ExpectPlanProperties(g, lost, RewindMode::kGtpCR, *cr, where + " GTP/c/r");
    for (uint32_t t : cr->rewound) {
      EXPECT_TRUE(testing::Contains(r->rewound, t))
          << where << ": GTP/c/r rewinds task " << t << " but GTP/r does not";
    }
    EXPECT_LE(cr->lr, r->lr) << where;
    EXPECT_EQ(cr->dropped, r->dropped) << where;
    if (r->rt_finished > 0) ++rewound_something;
    if (cr->rt < r->rt) ++cr_strictly_smaller;
    if (HasFailure()) return;  // one scenario's messages are enough
  }
  // The generator must exercise the interesting cases, not only trivia.
  EXPECT_GT(rewound_something, 50);
  EXPECT_GT(cr_strictly_smaller, 20);
}

}  // namespace
}  // namespace gs
