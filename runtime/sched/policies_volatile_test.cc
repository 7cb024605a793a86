#include "runtime/sched/policies_volatile.h"

#include <gtest/gtest.h>

#include <cmath>

namespace gs {
namespace {

AvailabilityChain Chain(double ud, double ur, double rr) {
  AvailabilityChain c;
  c.p[0][0] = 1 - ud - ur;
  c.p[0][1] = ur;
  c.p[0][2] = ud;
  c.p[1][1] = rr;
  c.p[1][0] = 1 - rr;
  c.p[1][2] = 0;
  return c;
}

TEST(VolatileModelTest, WithoutReclaimsSuccessIsSurvivingEverySlot) {
  HostStep s = StepOf(Chain(0.01, 0, 0));
  EXPECT_DOUBLE_EQ(s.p, 0.99);
  EXPECT_DOUBLE_EQ(s.t, 1);
  EXPECT_NEAR(SuccessProbability({s, s}, 11), std::pow(0.99, 20), 1e-12);
  EXPECT_DOUBLE_EQ(ExpectedSlots({s, s}, 11), 11);
}

TEST(VolatileModelTest, ReclaimsStretchTheExpectedTime) {
  // Reclaimed 10% of steps, for 2 slots on average (rr = 0.5), never down.
  HostStep s = StepOf(Chain(0, 0.1, 0.5));
  EXPECT_DOUBLE_EQ(s.p, 1);
  EXPECT_NEAR(s.t, 0.9 + 0.1 * 3, 1e-12);
  EXPECT_NEAR(ExpectedSlots({s}, 11), 1 + 10 * 1.2, 1e-9);
}

TEST(VolatileModelTest, NotDownIsExactOverTheHostsOwnChain) {
  EXPECT_NEAR(NotDownProbability(Chain(0.01, 0, 0), 10), std::pow(0.99, 10),
              1e-12);
  // UP -> RECLAIMED 0.5, RECLAIMED never goes DOWN, UP -> DOWN 0.1:
  // after 1 slot 0.9; after 2: UP 0.4 * 0.9 + RECLAIMED 0.5 * 1 = 0.86.
  AvailabilityChain c = Chain(0.1, 0.5, 0.5);
  EXPECT_NEAR(NotDownProbability(c, 1), 0.9, 1e-12);
  EXPECT_NEAR(NotDownProbability(c, 2), 0.4 * 0.9 + 0.5, 1e-12);
  EXPECT_NEAR(NotDownProbability(c, 1.2), NotDownProbability(c, 2), 1e-12);
  EXPECT_DOUBLE_EQ(NotDownProbability(c, 0), 1);
}

TEST(VolatileModelTest, CommunicationIsBoundByTheSlowestHostOrTheMaster) {
  const AvailabilityChain solid = Chain(0, 0, 0);
  // Three hosts needing 4, 2 and 6 slots; no bound: the longest, 6.
  std::vector<CommunicationNeed> s = {{solid, 4}, {solid, 2}, {solid, 6}};
  EXPECT_DOUBLE_EQ(Communication(s, 0).e, 6);
  EXPECT_DOUBLE_EQ(Communication(s, 3).e, 6);  // |S| <= n_com
  // The master talks to 2 at once: 12 slots of transfers take >= 6.
  EXPECT_DOUBLE_EQ(Communication(s, 2).e, 6);
  // ... to 1 at once: 12.
  EXPECT_DOUBLE_EQ(Communication(s, 1).e, 12);
  EXPECT_DOUBLE_EQ(Communication(s, 1).p, 1);
  // P_comm: every host survives E_comm, not only its own transfers.
  const AvailabilityChain fragile = Chain(0.01, 0, 0);
  std::vector<CommunicationNeed> f = {{fragile, 2}, {fragile, 8}};
  EXPECT_NEAR(Communication(f, 0).p, std::pow(0.99, 8) * std::pow(0.99, 8),
              1e-12);
  EXPECT_DOUBLE_EQ(Communication({}, 1).e, 0);
  EXPECT_DOUBLE_EQ(Communication({{fragile, 0}}, 0).p, 1);  // nothing to send
}

class FixedPredictor : public Predictor {
 public:
  explicit FixedPredictor(std::vector<Seconds> t) : t_(std::move(t)) {}
  Seconds ExecTime(OpId, HostId h) const override { return t_[h]; }
  Seconds TransferTime(TaskId, HostId) const override { return 0; }

 private:
  std::vector<Seconds> t_;
};

class FakeHosts : public VolatileHosts {
 public:
  std::vector<AvailabilityChain> chains;
  std::vector<HostAvail> states;
  uint32_t m = 1;
  Seconds slot() const override { return 1; }
  const AvailabilityChain& chain(HostId h) const override { return chains[h]; }
  HostAvail state(HostId h) const override { return states[h]; }
  uint32_t tasks_per_configuration() const override { return m; }
  std::vector<double> program;  // T_prog per host (empty: 0)
  double data = 0;
  uint32_t ncom = 0;
  double program_slots(HostId h) const override {
    return h < program.size() ? program[h] : 0;
  }
  double data_slots() const override { return data; }
  uint32_t n_com() const override { return ncom; }
};

std::vector<Placement> PlaceWith(const char* name, FakeHosts& model,
                                 const Predictor& pred,
                                 std::vector<HostState> hosts, size_t ready) {
  auto p = MakeVolatilePolicy(name);
  EXPECT_TRUE(p);
  AttachVolatileHosts(*p, &model);
  std::vector<ReadyTask> tasks;
  for (TaskId t = 0; t < ready; ++t) tasks.push_back({t, 0});
  SchedulingInput in{0, &hosts, &pred};
  std::vector<Placement> out;
  p->Place(tasks, in, &out);
  return out;
}

TEST(VolatilePolicyTest, IpTakesTheReliableHostIeTheFastOne) {
  FakeHosts model;
  // Host 0: fast and fragile; host 1: slow and solid.
  model.chains = {Chain(0.05, 0, 0), Chain(0.0001, 0, 0)};
  model.states = {HostAvail::kUp, HostAvail::kUp};
  FixedPredictor pred({5, 20});
  std::vector<HostState> hosts(2);
  auto ip = PlaceWith("ip", model, pred, hosts, 1);
  ASSERT_EQ(ip.size(), 1u);
  EXPECT_EQ(ip[0].host, 1u);
  auto ie = PlaceWith("ie", model, pred, hosts, 1);
  ASSERT_EQ(ie.size(), 1u);
  EXPECT_EQ(ie[0].host, 0u);
}

TEST(VolatilePolicyTest, AConfigurationStartsWholeOrNotAtAll) {
  FakeHosts model;
  model.chains = {Chain(0.01, 0, 0), Chain(0.01, 0, 0), Chain(0.01, 0, 0)};
  model.states = {HostAvail::kUp, HostAvail::kDown, HostAvail::kUp};
  model.m = 3;
  FixedPredictor pred({10, 10, 10});
  std::vector<HostState> hosts(3);
  // Two UP one-slot hosts cannot take three tasks.
  EXPECT_TRUE(PlaceWith("iy", model, pred, hosts, 3).empty());
  // With two slots on host 2 they can; the DOWN host is never used.
  hosts[2].slots = 2;
  auto out = PlaceWith("iy", model, pred, hosts, 3);
  ASSERT_EQ(out.size(), 3u);
  for (const Placement& p : out) EXPECT_NE(p.host, 1u);
}

// Two identical solid hosts, but host 0 already holds the program (T_prog
// 30 slots on host 1): IE takes host 0, even when host 1 computes faster.
TEST(VolatilePolicyTest, IeCountsTheCommunicationPhase) {
  FakeHosts model;
  model.chains = {Chain(0, 0, 0), Chain(0, 0, 0)};
  model.states = {HostAvail::kUp, HostAvail::kUp};
  model.program = {0, 30};
  FixedPredictor pred({10, 10});
  std::vector<HostState> hosts(2);
  auto one = PlaceWith("ie", model, pred, hosts, 1);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].host, 0u);
  EXPECT_DOUBLE_EQ(one[0].predicted_end, 10);  // no communication on host 0
  // Without the program cost the tie goes to the first host either way;
  // make host 1 faster so only the program keeps IE off it.
  FixedPredictor faster({10, 5});
  EXPECT_EQ(PlaceWith("ie", model, faster, hosts, 1)[0].host, 0u);
  model.program = {0, 0};
  EXPECT_EQ(PlaceWith("ie", model, faster, hosts, 1)[0].host, 1u);
}

// Live runs have no T_data in the model: a task's data is its input files,
// and the predictor tells how long moving them to each host takes (file
// sizes over the measured link speeds).
class InputsPredictor : public FixedPredictor {
 public:
  InputsPredictor(std::vector<Seconds> t, std::vector<Seconds> inputs)
      : FixedPredictor(std::move(t)), inputs_(std::move(inputs)) {}
  Seconds TransferTime(TaskId, HostId h) const override { return inputs_[h]; }

 private:
  std::vector<Seconds> inputs_;
};

TEST(VolatilePolicyTest, LiveIeCountsMovingTheInputFiles) {
  FakeHosts model;
  model.m = 0;
  model.chains = {Chain(0, 0, 0), Chain(0, 0, 0)};
  model.states = {HostAvail::kUp, HostAvail::kUp};
  std::vector<HostState> hosts(2);
  // Host 1 computes faster (5 s against 10) but its inputs take 8 s to
  // get there, 0 to host 0 (they are already on it): 13 against 10.
  InputsPredictor far({10, 5}, {0, 8});
  auto out = PlaceWith("ie", model, far, hosts, 1);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].host, 0u);
  EXPECT_DOUBLE_EQ(out[0].predicted_end, 10);
  // Inputs of 4 s: 9 against 10, host 1.
  InputsPredictor near({10, 5}, {0, 4});
  out = PlaceWith("ie", model, near, hosts, 1);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].host, 1u);
  EXPECT_DOUBLE_EQ(out[0].predicted_end, 9);
}

// x'_q (section III): a host that holds the iteration's data needs only the
// rest; with T_data 8 it beats a host that computes 5 s faster.
TEST(VolatilePolicyTest, IeCountsTheDataAHostAlreadyHolds) {
  class Holding : public FakeHosts {
   public:
    uint32_t data_held(HostId h) const override { return h == 0 ? 1 : 0; }
  } model;
  model.chains = {Chain(0, 0, 0), Chain(0, 0, 0)};
  model.states = {HostAvail::kUp, HostAvail::kUp};
  model.data = 8;
  FixedPredictor pred({10, 5});
  std::vector<HostState> hosts(2);
  auto out = PlaceWith("ie", model, pred, hosts, 1);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].host, 0u);  // 10 against 8 + 5
  EXPECT_DOUBLE_EQ(out[0].predicted_end, 10);
}

// n_com = 1: the master sends one host's data at a time, so spreading m
// tasks over more hosts costs the sum of their transfers.
TEST(VolatilePolicyTest, TheMastersBoundMakesIeGroupTasks) {
  FakeHosts model;
  model.chains = {Chain(0, 0, 0), Chain(0, 0, 0)};
  model.states = {HostAvail::kUp, HostAvail::kUp};
  model.program = {20, 20};
  model.data = 1;
  model.m = 2;
  FixedPredictor pred({10, 10});
  std::vector<HostState> hosts(2);
  hosts[0].slots = 2;
  hosts[1].slots = 2;
  // Unbounded master: one task per host (E = 21 + 10) beats both on one
  // host (22 + 20).
  auto spread = PlaceWith("ie", model, pred, hosts, 2);
  ASSERT_EQ(spread.size(), 2u);
  EXPECT_NE(spread[0].host, spread[1].host);
  // n_com = 1: one host per configuration costs 22 + 20 = 42 against two
  // hosts' 42 slots of transfers + 10 = 52.
  model.ncom = 1;
  auto grouped = PlaceWith("ie", model, pred, hosts, 2);
  ASSERT_EQ(grouped.size(), 2u);
  EXPECT_EQ(grouped[0].host, grouped[1].host);
}

// Host 0 never fails but is slow (E = 20 slots, P = 1); host 1 is fast and
// fragile (E = 10, P = 0.98^9 = 0.83). AY = P / E prefers host 1 always;
// Y = P / (E + t) counts the t seconds the iteration has already taken: at
// its start it agrees with AY, after a restart at t = 100 it prefers the
// host that will not fail again (1/120 > 0.83/110).
TEST(VolatilePolicyTest, IyCountsTheIterationsElapsedTimeIayDoesNot) {
  FakeHosts model;
  model.chains = {Chain(0, 0, 0), Chain(0.02, 0, 0)};
  model.states = {HostAvail::kUp, HostAvail::kUp};
  FixedPredictor pred({20, 10});
  std::vector<HostState> hosts(2);
  for (const char* name : {"iy", "iay"}) {
    SCOPED_TRACE(name);
    auto p = MakeVolatilePolicy(name);
    AttachVolatileHosts(*p, &model);
    std::vector<Placement> first, again;
    p->Place(std::vector<ReadyTask>{{0, 0}}, SchedulingInput{0, &hosts, &pred},
             &first);
    ASSERT_EQ(first.size(), 1u);
    EXPECT_EQ(first[0].host, 1u);
    // The same task again (its job failed): the iteration began at 0.
    p->Place(std::vector<ReadyTask>{{0, 0}},
             SchedulingInput{100, &hosts, &pred}, &again);
    ASSERT_EQ(again.size(), 1u);
    EXPECT_EQ(again[0].host, std::string_view(name) == "iy" ? 0u : 1u);
  }
}

// Paper 002's proactive step with a fixed m: the task runs on the slow
// host because the fast one is DOWN; once the fast host is UP again, e-ie
// stops it (to be placed again there), and ie, passive, never does.
TEST(VolatilePolicyTest, ProactiveReconfiguresWhenABetterHostComesUp) {
  FakeHosts model;
  model.chains = {Chain(0.001, 0, 0), Chain(0.001, 0, 0)};
  model.states = {HostAvail::kUp, HostAvail::kDown};
  FixedPredictor pred({100, 10});
  std::vector<HostState> hosts(2);
  auto p = MakeVolatilePolicy("e-ie");
  AttachVolatileHosts(*p, &model);
  EXPECT_EQ(p->reconsider_period(), 1);
  std::vector<Placement> out;
  p->Place(std::vector<ReadyTask>{{5, 0}}, SchedulingInput{0, &hosts, &pred},
           &out);
  ASSERT_EQ(out.size(), 1u);
  ASSERT_EQ(out[0].host, 0u);
  std::vector<HostState> later(2);
  later[0].busy_until = {out[0].predicted_end};
  SchedulingInput in{2, &later, &pred};
  EXPECT_TRUE(p->Reconsider(out, in).empty());  // host 1 still DOWN
  model.states[1] = HostAvail::kUp;
  EXPECT_EQ(p->Reconsider(out, in), std::vector<TaskId>{5});
  EXPECT_EQ(static_cast<ProactivePolicy*>(p.get())->reconfigurations(), 1u);
  auto passive = MakeVolatilePolicy("ie");
  AttachVolatileHosts(*passive, &model);
  EXPECT_EQ(passive->reconsider_period(), 0);
  EXPECT_TRUE(passive->Reconsider(out, in).empty());
}

// Issue 12: with more ready tasks than free slots and no fixed m (the live
// runtime), every policy used to wait forever for all of them to fit.
TEST(VolatilePolicyTest, LiveTheReadyTasksThatFitStartNow) {
  FixedPredictor pred({10, 10});
  std::vector<HostState> hosts(2);
  hosts[0].slots = 2;
  hosts[1].slots = 1;
  hosts[1].busy_until = {5};  // its slot is taken
  for (const char* name : {"ip", "ie", "iy", "iay", "p-ie", "y-iay"}) {
    SCOPED_TRACE(name);
    auto p = MakeVolatilePolicy(name);
    ASSERT_TRUE(p);
    std::vector<ReadyTask> tasks;
    for (TaskId t = 0; t < 12; ++t) tasks.push_back({t, 0});
    SchedulingInput in{0, &hosts, &pred};
    std::vector<Placement> out;
    p->Place(tasks, in, &out);  // no model: every host UP
    ASSERT_EQ(out.size(), 2u);
    EXPECT_EQ(out[0].task, 0u);
    EXPECT_EQ(out[1].task, 1u);
    for (const Placement& pl : out) EXPECT_EQ(pl.host, 0u);
  }
}

// A live model (m = 0) that says host 1 is DOWN: its free slot stays
// unused, host 0's are filled.
TEST(VolatilePolicyTest, LiveDownHostsAreLeftOut) {
  FakeHosts model;
  model.m = 0;
  model.chains = {Chain(0.01, 0, 0), Chain(0.01, 0, 0)};
  model.states = {HostAvail::kUp, HostAvail::kDown};
  FixedPredictor pred({10, 1});
  std::vector<HostState> hosts(2);
  hosts[0].slots = 3;
  auto out = PlaceWith("ie", model, pred, hosts, 5);
  ASSERT_EQ(out.size(), 3u);
  for (const Placement& p : out) EXPECT_EQ(p.host, 0u);
}

// A live proactive policy moves the running tasks when a better host frees
// up, and never moves a task twice.
TEST(VolatilePolicyTest, LiveProactiveMovesOnceToTheFasterHost) {
  FakeHosts model;
  model.m = 0;
  model.chains = {Chain(0, 0, 0), Chain(0, 0, 0)};
  model.states = {HostAvail::kUp, HostAvail::kUp};
  FixedPredictor pred({100, 10});  // host 1 is ten times faster
  auto p = MakeVolatilePolicy("e-ie");
  AttachVolatileHosts(*p, &model);
  std::vector<HostState> hosts(2);
  hosts[1].busy_until = {50};  // busy when the task is placed
  SchedulingInput in{0, &hosts, &pred};
  std::vector<Placement> out;
  p->Place(std::vector<ReadyTask>{{7, 0}}, in, &out);
  ASSERT_EQ(out.size(), 1u);
  ASSERT_EQ(out[0].host, 0u);
  // One second later host 1 is free: 99 s left on host 0 against 10 s.
  std::vector<HostState> later(2);
  later[0].busy_until = {out[0].predicted_end};
  SchedulingInput in2{1, &later, &pred};
  EXPECT_EQ(p->Reconsider(out, in2), std::vector<TaskId>{7});
  // Placed again on host 0 (say host 1 was taken meanwhile), it stays.
  EXPECT_TRUE(p->Reconsider(out, in2).empty());
  auto* pro = static_cast<ProactivePolicy*>(p.get());
  EXPECT_EQ(pro->reconfigurations(), 1u);
}

// With the same free host but the task nearly done, staying is better.
TEST(VolatilePolicyTest, LiveProactiveKeepsATaskNearlyDone) {
  FakeHosts model;
  model.m = 0;
  model.chains = {Chain(0, 0, 0), Chain(0, 0, 0)};
  model.states = {HostAvail::kUp, HostAvail::kUp};
  FixedPredictor pred({100, 10});
  auto p = MakeVolatilePolicy("e-ie");
  AttachVolatileHosts(*p, &model);
  std::vector<HostState> hosts(2);
  hosts[1].busy_until = {50};
  SchedulingInput in{0, &hosts, &pred};
  std::vector<Placement> out;
  p->Place(std::vector<ReadyTask>{{7, 0}}, in, &out);
  ASSERT_EQ(out.size(), 1u);
  std::vector<HostState> later(2);
  later[0].busy_until = {out[0].predicted_end};
  SchedulingInput in2{95, &later, &pred};  // 5 s left against 10 s
  EXPECT_TRUE(p->Reconsider(out, in2).empty());
}

TEST(VolatilePolicyTest, AllNamesAreKnown) {
  for (const char* n : {"ip", "ie", "iy", "iay"}) {
    auto p = MakePolicy(n);
    ASSERT_TRUE(p.ok()) << n;
    EXPECT_EQ((*p)->name(), n);
    for (const char* c : {"p-", "e-", "y-"}) {
      std::string name = std::string(c) + n;
      auto q = MakePolicy(name);
      ASSERT_TRUE(q.ok()) << name;
      EXPECT_EQ((*q)->name(), name);
    }
  }
  EXPECT_FALSE(MakePolicy("ay-ie").ok());
  EXPECT_FALSE(MakePolicy("y-mct").ok());
}

}  // namespace
}  // namespace gs
