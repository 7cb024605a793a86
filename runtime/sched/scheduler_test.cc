#include "runtime/sched/scheduler.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <vector>

namespace gs {
namespace {

// Execution times from a table, transfers from another; no adapter at all.
class TablePredictor : public Predictor {
 public:
  std::map<std::pair<OpId, HostId>, Seconds> et;
  std::map<std::pair<TaskId, HostId>, Seconds> transfer;
  Seconds ExecTime(OpId op, HostId h) const override {
    auto it = et.find({op, h});
    return it == et.end() ? 1.0 : it->second;
  }
  Seconds TransferTime(TaskId t, HostId h) const override {
    auto it = transfer.find({t, h});
    return it == transfer.end() ? 0.0 : it->second;
  }
};

std::vector<HostState> Hosts(std::initializer_list<int> slots) {
  std::vector<HostState> hosts;
  for (int s : slots) hosts.push_back(HostState{s, true, {}});
  return hosts;
}

TEST(MctTest, FillsFreeSlotsInOrder) {
  TablePredictor p;
  auto hosts = Hosts({2});
  Scheduler s(MakeMctPolicy());
  for (TaskId t = 0; t < 5; ++t) s.AddReady(t, 0);
  auto placed = s.Schedule({0, &hosts, &p});
  ASSERT_EQ(placed.size(), 2u);
  EXPECT_EQ(placed[0].task, 0u);
  EXPECT_EQ(placed[1].task, 1u);
  EXPECT_EQ(s.num_ready(), 3u);
}

TEST(MctTest, PrefersTheHostThatFinishesFirst) {
  TablePredictor p;
  p.et[{0, 0}] = 10;  // host 0 slow
  p.et[{0, 1}] = 2;   // host 1 fast
  auto hosts = Hosts({1, 1});
  Scheduler s(MakeMctPolicy());
  s.AddReady(7, 0);
  auto placed = s.Schedule({0, &hosts, &p});
  ASSERT_EQ(placed.size(), 1u);
  EXPECT_EQ(placed[0].host, 1u);
  EXPECT_DOUBLE_EQ(placed[0].predicted_end, 2);
}

TEST(MctTest, CountsBacklogOfBusyHosts) {
  TablePredictor p;
  p.et[{0, 0}] = 3;
  p.et[{0, 1}] = 2;
  auto hosts = Hosts({1, 1});
  hosts[1].busy_until = {5};  // fast host busy until t=5: 5+2 > 0+3
  Scheduler s(MakeMctPolicy());
  s.AddReady(1, 0);
  auto placed = s.Schedule({0, &hosts, &p});
  ASSERT_EQ(placed.size(), 1u);
  EXPECT_EQ(placed[0].host, 0u);
}

TEST(MctTest, WaitsForABusyHostWhenThatIsFaster) {
  TablePredictor p;
  p.et[{0, 0}] = 100;
  p.et[{0, 1}] = 1;
  auto hosts = Hosts({1, 1});
  hosts[1].busy_until = {2};  // 2+1 beats 0+100
  Scheduler s(MakeMctPolicy());
  s.AddReady(1, 0);
  EXPECT_TRUE(s.Schedule({0, &hosts, &p}).empty());
  EXPECT_EQ(s.num_ready(), 1u);
}

TEST(MctTest, TransferTimeCounts) {
  TablePredictor p;
  p.transfer[{4, 0}] = 10;  // inputs of task 4 live on host 1
  auto hosts = Hosts({1, 1});
  Scheduler s(MakeMctPolicy());
  s.AddReady(4, 0);
  auto placed = s.Schedule({0, &hosts, &p});
  ASSERT_EQ(placed.size(), 1u);
  EXPECT_EQ(placed[0].host, 1u);
}

TEST(MctTest, SkipsUnusableHostsAndTiesGoToLowestIndex) {
  TablePredictor p;
  auto hosts = Hosts({1, 1, 1});
  hosts[0].usable = false;
  Scheduler s(MakeMctPolicy());
  s.AddReady(0, 0);
  auto placed = s.Schedule({0, &hosts, &p});
  ASSERT_EQ(placed.size(), 1u);
  EXPECT_EQ(placed[0].host, 1u);
}

TEST(MctTest, OverrunningJobKeepsItsSlot) {
  TablePredictor p;
  auto hosts = Hosts({1});
  hosts[0].busy_until = {3};  // predicted to end at 3; it is now 10
  Scheduler s(MakeMctPolicy());
  s.AddReady(0, 0);
  EXPECT_TRUE(s.Schedule({10, &hosts, &p}).empty());
}

TEST(MetTest, IgnoresBacklog) {
  TablePredictor p;
  p.et[{0, 0}] = 3;
  p.et[{0, 1}] = 2;
  auto hosts = Hosts({1, 1});
  hosts[1].busy_until = {5};
  Scheduler s(MakeMetPolicy());
  s.AddReady(1, 0);
  EXPECT_TRUE(s.Schedule({0, &hosts, &p}).empty());  // waits for host 1
}

TEST(PolicyTest, UnknownNameIsAClearError) {
  auto p = MakePolicy("fastest");
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.status().message().find("mct"), std::string::npos);
}

}  // namespace
}  // namespace gs

namespace gs {
namespace {

TEST(MctTest, UnknownTimesSpreadOverFreeHosts) {
  // Before anything is measured every prediction is 0: a tie everywhere.
  class Zero : public Predictor {
    Seconds ExecTime(OpId, HostId) const override { return 0; }
    Seconds TransferTime(TaskId, HostId) const override { return 0; }
  } zero;
  std::vector<HostState> hosts(3);
  hosts[0].busy_until = {0};  // host 0 busy, "ending" now
  Scheduler s(MakeMctPolicy());
  s.AddReady(0, 0);
  s.AddReady(1, 0);
  auto placed = s.Schedule({0, &hosts, &zero});
  ASSERT_EQ(placed.size(), 2u);
  EXPECT_EQ(placed[0].host, 1u);
  EXPECT_EQ(placed[1].host, 2u);
}

// Places the tasks at the given indices of the queue, telling the index
// (`tell`), a wrong one, or none.
class ScriptedPolicy : public Policy {
 public:
  enum class Tell { kRight, kWrong, kNone };
  ScriptedPolicy(std::vector<uint32_t> picks, Tell tell)
      : picks_(std::move(picks)), tell_(tell) {}
  std::string_view name() const override { return "scripted"; }
  Choice Choose(const ReadyTask&, const SlotBoard&, const Predictor&) override {
    return {};
  }
  void Place(std::span<const ReadyTask> ready, const SchedulingInput&,
             std::vector<Placement>* out) override {
    for (uint32_t i : picks_) {
      Placement p{ready[i].id, 0, 0};
      if (tell_ == Tell::kRight) p.ready_index = i;
      if (tell_ == Tell::kWrong) p.ready_index = (i + 1) % ready.size();
      out->push_back(p);
    }
  }

 private:
  std::vector<uint32_t> picks_;
  Tell tell_;
};

// Placed tasks leave the queue and the others keep their order, whether
// the policy told where they were, told wrongly or did not tell; over
// rounds, with the queue's consumed front and tasks added at its end.
TEST(SchedulerTest, PlacedTasksLeaveTheQueueWhereverTheyAre) {
  TablePredictor p;
  auto hosts = Hosts({1});
  for (auto tell : {ScriptedPolicy::Tell::kRight, ScriptedPolicy::Tell::kWrong,
                    ScriptedPolicy::Tell::kNone}) {
    for (const std::vector<uint32_t>& picks :
         std::vector<std::vector<uint32_t>>{
             {0}, {5}, {9}, {2, 7}, {8, 1, 4}, {0, 1, 2}, {9, 3}}) {
      Scheduler s(std::make_unique<ScriptedPolicy>(picks, tell));
      std::vector<TaskId> model;
      TaskId next = 100;
      for (int round = 0; round < 40; ++round) {
        while (model.size() < 10) {
          s.AddReady(next, 0);
          model.push_back(next++);
        }
        std::vector<TaskId> placed_ids;
        for (const Placement& pl : s.Schedule({0, &hosts, &p}))
          placed_ids.push_back(pl.task);
        std::vector<TaskId> expected_placed;
        for (uint32_t i : picks) expected_placed.push_back(model[i]);
        EXPECT_EQ(placed_ids, expected_placed);
        std::erase_if(model, [&](TaskId t) {
          return std::find(expected_placed.begin(), expected_placed.end(), t) !=
                 expected_placed.end();
        });
        std::vector<TaskId> left;
        for (const ReadyTask& r : s.ready()) left.push_back(r.id);
        ASSERT_EQ(left, model)
            << "round " << round << ", tell " << static_cast<int>(tell);
      }
    }
  }
}

}  // namespace
}  // namespace gs
