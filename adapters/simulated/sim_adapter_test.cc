#include "adapters/simulated/sim_adapter.h"

#include <gtest/gtest.h>

#include <optional>

#include "runtime/base/virtual_clock.h"

namespace gs {
namespace {

// Every job computes 10 s; gangs by operation "g" of size 2.
class TenSeconds : public SimWorkModel {
 public:
  Seconds ExecTime(const JobSpec&, uint32_t) const override { return 10; }
  uint64_t OutputBytes(const JobSpec&, size_t) const override { return 1000; }
  Gang GangOf(const JobSpec& spec) const override {
    if (spec.operation == "g") return {"g", 2};
    return {};
  }
};

struct Fixture {
  explicit Fixture(std::vector<SimHostSpec> hosts)
      : world(std::move(hosts), std::make_shared<TenSeconds>(), 1) {
    for (uint32_t h = 0; h < world.num_hosts(); ++h) {
      adapters.push_back(world.MakeAdapter(h, clock));
      EXPECT_TRUE(adapters.back()->Connect().ok());
    }
  }
  void RunAll() {
    while (clock.RunNext()) {
    }
  }
  VirtualClock clock;
  SimWorld world;
  std::vector<std::unique_ptr<Adapter>> adapters;
};

std::vector<SimHostSpec> Hosts(size_t n) {
  std::vector<SimHostSpec> hosts(n);
  for (size_t i = 0; i < n; ++i) hosts[i].name = "h" + std::to_string(i);
  return hosts;
}

JobSpec Job(JobId id, const char* op = "op", const char* out = nullptr) {
  JobSpec s;
  s.id = id;
  s.operation = op;
  if (out) {
    JobParam p;
    p.kind = JobParam::Kind::kFileOut;
    p.dest = out;
    s.params.push_back(p);
  }
  return s;
}

TEST(SimAdapterTest, ReclaimedSuspendsTheJob) {
  auto hosts = Hosts(1);
  hosts[0].trace = {{2, SimAvail::kReclaimed}, {5, SimAvail::kUp}};
  Fixture f(hosts);
  std::optional<JobReport> r;
  f.adapters[0]->Submit(Job(1), [&](JobReport rep) { r = rep; });
  f.RunAll();
  ASSERT_TRUE(r);
  EXPECT_TRUE(std::get<Exited>(r->outcome).succeeded());
  EXPECT_DOUBLE_EQ(r->ended, 13);  // 10 s of work + 3 s reclaimed
}

TEST(SimAdapterTest, DownLosesTheJobAndTheFilesUntilReconnected) {
  auto hosts = Hosts(1);
  hosts[0].trace = {{15, SimAvail::kDown}, {30, SimAvail::kUp}};
  Fixture f(hosts);
  Adapter& a = *f.adapters[0];
  std::optional<JobReport> first, second;
  a.Submit(Job(1, "op", "/sim/h0/data/out"), [&](JobReport r) { first = r; });
  f.clock.RunNext();  // out of the queue
  while (!first) f.clock.RunNext();
  EXPECT_TRUE(std::get<Exited>(first->outcome).succeeded());
  a.Submit(Job(2), [&](JobReport r) { second = r; });
  while (!second) f.clock.RunNext();
  ASSERT_TRUE(std::holds_alternative<HostFailed>(second->outcome));
  EXPECT_DOUBLE_EQ(second->ended, 15);
  EXPECT_FALSE(a.connected());
  EXPECT_FALSE(a.Connect().ok());  // still DOWN
  EXPECT_EQ(f.world.stats().wasted_cpu, 5);
  while (f.clock.Now() < 30 && f.clock.RunNext()) {
  }
  EXPECT_TRUE(a.Connect().ok());
  std::optional<Status> got;
  a.Get("/sim/h0/data/out", "/nonexistent/x", [&](Status s) { got = s; });
  f.RunAll();
  ASSERT_TRUE(got);
  EXPECT_EQ(got->code(), Status::Code::kNotFound);  // lost with the host
}

TEST(SimAdapterTest, CancelFreesTheSlotAtOnceAndReportsCancelledOnce) {
  auto hosts = Hosts(1);
  hosts[0].queue_wait = 1;
  Fixture f(hosts);
  Adapter& a = *f.adapters[0];
  int reports = 0;
  std::optional<JobReport> r;
  a.Submit(Job(1), [&](JobReport rep) {
    ++reports;
    r = rep;
  });
  EXPECT_EQ(a.FreeSlots(), 0);
  // Out of the queue at 1, computing; cancelled at 4 (3 s computed).
  auto stop = f.clock.After(4, [&] {
    a.Cancel(1);
    EXPECT_EQ(a.FreeSlots(), 1) << "the slot is free when Cancel returns";
    a.Cancel(1);  // twice: still one report
  });
  f.RunAll();
  EXPECT_EQ(reports, 1);
  ASSERT_TRUE(r);
  EXPECT_TRUE(std::holds_alternative<Cancelled>(r->outcome));
  EXPECT_DOUBLE_EQ(r->ended, 4);
  EXPECT_DOUBLE_EQ(f.world.stats().wasted_cpu, 3);
  EXPECT_DOUBLE_EQ(f.world.stats().useful_cpu, 0);
  EXPECT_EQ(f.world.stats().jobs_cancelled, 1u);
  EXPECT_EQ(f.world.stats().jobs_done, 0u);
  // Cancelling a job that already ended changes nothing.
  std::optional<JobReport> done;
  a.Submit(Job(2), [&](JobReport rep) { done = rep; });
  f.RunAll();
  ASSERT_TRUE(done);
  a.Cancel(2);
  f.RunAll();
  EXPECT_TRUE(std::get<Exited>(done->outcome).succeeded());
  EXPECT_EQ(f.world.stats().jobs_cancelled, 1u);
  EXPECT_DOUBLE_EQ(f.world.stats().useful_cpu, 10);
}

TEST(SimAdapterTest, TransfersTakeLatencyPlusSizeOverBandwidth) {
  auto hosts = Hosts(1);
  hosts[0].latency = 0.5;
  hosts[0].bandwidth = 100;
  Fixture f(hosts);
  f.world.SetMasterFileSize("/m/in", 300);
  std::optional<Seconds> done_at;
  f.adapters[0]->Put("/m/in", "/sim/h0/data/in",
                     [&](Status s) { done_at = f.clock.Now(); });
  f.RunAll();
  ASSERT_TRUE(done_at);
  EXPECT_DOUBLE_EQ(*done_at, 3.5);
}

TEST(SimAdapterTest, AGangComputesTogetherAndFailsTogether) {
  auto hosts = Hosts(2);
  hosts[1].queue_wait = 4;  // the gang starts when its last member does
  Fixture f(hosts);
  std::optional<JobReport> a, b;
  f.adapters[0]->Submit(Job(1, "g"), [&](JobReport r) { a = r; });
  f.adapters[1]->Submit(Job(2, "g"), [&](JobReport r) { b = r; });
  f.RunAll();
  ASSERT_TRUE(a && b);
  EXPECT_DOUBLE_EQ(a->ended, 14);
  EXPECT_DOUBLE_EQ(b->ended, 14);

  auto hosts2 = Hosts(2);
  hosts2[1].trace = {{6, SimAvail::kDown}};
  Fixture g(hosts2);
  a.reset();
  b.reset();
  g.adapters[0]->Submit(Job(1, "g"), [&](JobReport r) { a = r; });
  g.adapters[1]->Submit(Job(2, "g"), [&](JobReport r) { b = r; });
  g.RunAll();
  ASSERT_TRUE(a && b);
  EXPECT_TRUE(std::holds_alternative<Cancelled>(a->outcome));
  EXPECT_TRUE(std::holds_alternative<HostFailed>(b->outcome));
  EXPECT_DOUBLE_EQ(g.world.stats().wasted_cpu, 12);  // 6 s on each
}

// Paper 002's communication phase, with times counted by hand: T_prog 3 s,
// T_data 2 s, every job computes 10 s.
SimCommunication Comm(uint32_t n_com) { return {3, 2, n_com}; }

TEST(SimAdapterTest, OneMasterChannelSerialisesProgramAndData) {
  Fixture f(Hosts(2));
  f.world.set_communication(Comm(1));
  std::optional<JobReport> a, b;
  f.adapters[0]->Submit(Job(1, "g"), [&](JobReport r) { a = r; });
  f.adapters[1]->Submit(Job(2, "g"), [&](JobReport r) { b = r; });
  f.RunAll();
  ASSERT_TRUE(a && b);
  // h0's program 0-3 and data 3-5, h1's program 5-8 and data 8-10; the
  // gang computes 10-20.
  EXPECT_DOUBLE_EQ(a->ended, 20);
  EXPECT_DOUBLE_EQ(b->ended, 20);
  EXPECT_TRUE(f.world.has_program(0) && f.world.has_program(1));

  // Both hold the program now: the next iteration pays only the data,
  // 20-22 and 22-24, then computes 24-34.
  a.reset();
  b.reset();
  f.adapters[0]->Submit(Job(3, "g"), [&](JobReport r) { a = r; });
  f.adapters[1]->Submit(Job(4, "g"), [&](JobReport r) { b = r; });
  f.RunAll();
  ASSERT_TRUE(a && b);
  EXPECT_DOUBLE_EQ(a->ended, 34);
  EXPECT_EQ(f.world.stats().program_sends, 2u);
  EXPECT_EQ(f.world.stats().data_sends, 4u);
}

TEST(SimAdapterTest, WithoutABoundEveryHostReceivesAtOnce) {
  Fixture f(Hosts(2));
  f.world.set_communication(Comm(0));
  std::optional<JobReport> a, b;
  f.adapters[0]->Submit(Job(1, "g"), [&](JobReport r) { a = r; });
  f.adapters[1]->Submit(Job(2, "g"), [&](JobReport r) { b = r; });
  f.RunAll();
  ASSERT_TRUE(a && b);
  // Program 0-3 and data 0-2 on both hosts: computing from 3.
  EXPECT_DOUBLE_EQ(a->ended, 13);
}

TEST(SimAdapterTest, ADownHostLosesTheProgramAndWhatItWasReceiving) {
  auto hosts = Hosts(2);
  hosts[0].trace = {{4, SimAvail::kDown}, {5, SimAvail::kUp}};
  Fixture f(hosts);
  f.world.set_communication(Comm(1));
  std::optional<JobReport> a, b;
  f.adapters[0]->Submit(Job(1), [&](JobReport r) { a = r; });
  f.adapters[1]->Submit(Job(2), [&](JobReport r) { b = r; });
  f.RunAll();
  ASSERT_TRUE(a && b);
  // h0 had its program (0-3) and was receiving the data (3-5) when it went
  // down at 4: the job fails there and the channel goes to h1 at 4, which
  // receives 4-7 and 7-9 and computes 9-19.
  ASSERT_TRUE(std::holds_alternative<HostFailed>(a->outcome));
  EXPECT_DOUBLE_EQ(a->ended, 4);
  EXPECT_DOUBLE_EQ(b->ended, 19);
  EXPECT_FALSE(f.world.has_program(0));
  EXPECT_EQ(f.world.stats().data_sends, 1u);

  // Back up and reconnected, h0 needs the program again: 19-22, 22-24,
  // computing 24-34.
  ASSERT_TRUE(f.adapters[0]->Connect().ok());
  a.reset();
  f.adapters[0]->Submit(Job(3), [&](JobReport r) { a = r; });
  f.RunAll();
  ASSERT_TRUE(a);
  EXPECT_TRUE(std::get<Exited>(a->outcome).succeeded());
  EXPECT_DOUBLE_EQ(a->ended, 34);
  EXPECT_EQ(f.world.stats().program_sends, 3u);
}

// Paper 002: a host that did not go DOWN keeps the data it received for an
// iteration, and a task of that iteration placed on it again uses it.
TEST(SimAdapterTest, AStoppedIterationsDataIsReusedWhereItArrived) {
  auto hosts = Hosts(3);
  hosts[1].trace = {{12, SimAvail::kDown}};
  Fixture f(hosts);
  f.world.set_communication(Comm(0));
  std::optional<JobReport> a, b;
  f.adapters[0]->Submit(Job(1, "g"), [&](JobReport r) { a = r; });
  f.adapters[1]->Submit(Job(2, "g"), [&](JobReport r) { b = r; });
  f.RunAll();
  // Received 0-3, computing from 3; h1 goes down at 12: the gang stops.
  ASSERT_TRUE(a && b);
  ASSERT_TRUE(std::holds_alternative<Cancelled>(a->outcome));
  EXPECT_EQ(f.world.data_held(0), 1);
  EXPECT_EQ(f.world.data_held(1), 0);  // lost with the host
  // The iteration again on h0 and h2, from 12: h0 has the program and the
  // data, h2 receives both (12-15); the gang computes 15-25.
  a.reset();
  b.reset();
  f.adapters[0]->Submit(Job(3, "g"), [&](JobReport r) { a = r; });
  f.adapters[2]->Submit(Job(4, "g"), [&](JobReport r) { b = r; });
  f.RunAll();
  ASSERT_TRUE(a && b);
  EXPECT_TRUE(std::get<Exited>(a->outcome).succeeded());
  EXPECT_DOUBLE_EQ(a->ended, 25);
  EXPECT_EQ(f.world.stats().data_reused, 1u);
  EXPECT_EQ(f.world.stats().data_sends, 3u);
  // The iteration is done: its data serves no more.
  EXPECT_EQ(f.world.data_held(0), 0);
}

TEST(SimAdapterTest, MarkovDowntimeMatchesTheChain) {
  // UP -> DOWN 1 %, DOWN -> UP 4 % per slot: DOWN 20 % of the time.
  auto hosts = Hosts(1);
  MarkovAvailability m;
  m.p[0][0] = 0.99;
  m.p[0][2] = 0.01;
  m.p[2][2] = 0.96;
  m.p[2][0] = 0.04;
  hosts[0].markov = m;
  Fixture f(hosts);
  Seconds down = 0, last = 0;
  SimAvail state = SimAvail::kUp;
  uint64_t changes = 0;
  while (f.clock.NextTime() < 1e6 && f.clock.RunNext()) {
    SimAvail now = f.world.avail(0);
    if (now != state) {
      if (state == SimAvail::kDown) down += f.clock.Now() - last;
      last = f.clock.Now();
      state = now;
      ++changes;
    }
  }
  EXPECT_GT(changes, 1000u);
  EXPECT_NEAR(down / f.clock.Now(), 0.2, 0.02);
}

}  // namespace
}  // namespace gs
