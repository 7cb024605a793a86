#include "runtime/sched/policies_ft.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

namespace gs {
namespace {

class TablePredictor : public Predictor {
 public:
  std::map<std::pair<OpId, HostId>, Seconds> et;
  Seconds ExecTime(OpId op, HostId h) const override {
    auto it = et.find({op, h});
    return it == et.end() ? 1.0 : it->second;
  }
  Seconds TransferTime(TaskId, HostId) const override { return 0; }
};

// Liveness from a set of dead hosts; records which hosts were probed.
class FakeHealth : public HostHealth {
 public:
  std::set<HostId> dead;
  mutable std::vector<HostId> probed;
  bool Alive(HostId h) const override {
    probed.push_back(h);
    return !dead.count(h);
  }
};

std::vector<HostState> Hosts(size_t n) {
  return std::vector<HostState>(n, HostState{1, true, {}});
}

std::unique_ptr<Policy> Named(std::string_view name) {
  auto p = MakePolicy(name);
  EXPECT_TRUE(p.ok()) << p.status().ToString();
  return std::move(p).value();
}

TEST(FtPolicyTest, MakePolicyKnowsTheNames) {
  EXPECT_EQ(Named("ftmet")->name(), "ftmet");
  EXPECT_EQ(Named("ftmct")->name(), "ftmct");
  FakeHealth health;
  EXPECT_TRUE(AttachHostHealth(*Named("ftmet"), &health));
  EXPECT_FALSE(AttachHostHealth(*Named("met"), &health));
}

TEST(FtPolicyTest, FtMetSkipsFailedHostsInRankOrderAndProbesOnlyWhatItNeeds) {
  TablePredictor p;
  p.et = {{{0, 0}, 5}, {{0, 1}, 2}, {{0, 2}, 3}, {{0, 3}, 4}};
  auto hosts = Hosts(4);
  SlotBoard board({0, &hosts, &p});
  FakeHealth health;
  health.dead = {1, 2};  // best and second best down: the 3rd best is used
  auto policy = Named("ftmet");
  AttachHostHealth(*policy, &health);
  Policy::Choice c = policy->Choose({0, 0}, board, p);
  EXPECT_EQ(c.host, 3u);
  EXPECT_DOUBLE_EQ(c.end, 4);
  EXPECT_EQ(health.probed, (std::vector<HostId>{1, 2, 3}));  // not host 0
}

TEST(FtPolicyTest, FtMetIgnoresBacklogFtMctCountsIt) {
  TablePredictor p;
  p.et = {{{0, 0}, 3}, {{0, 1}, 2}, {{0, 2}, 1}};
  auto hosts = Hosts(3);
  hosts[2].busy_until = {10};  // fastest host has a long backlog
  SlotBoard board({0, &hosts, &p});
  FakeHealth health;
  health.dead = {0};
  auto met = Named("ftmet");
  auto mct = Named("ftmct");
  AttachHostHealth(*met, &health);
  AttachHostHealth(*mct, &health);
  EXPECT_EQ(met->Choose({0, 0}, board, p).host, 2u);
  Policy::Choice c = mct->Choose({0, 0}, board, p);  // 0 would be best: dead
  EXPECT_EQ(c.host, 1u);
  EXPECT_DOUBLE_EQ(c.end, 2);
}

TEST(FtPolicyTest, TiesGoToTheLowestLiveIndex) {
  TablePredictor p;  // every time 1
  auto hosts = Hosts(4);
  SlotBoard board({0, &hosts, &p});
  FakeHealth health;
  health.dead = {0};
  for (const char* name : {"ftmet", "ftmct"}) {
    auto policy = Named(name);
    AttachHostHealth(*policy, &health);
    EXPECT_EQ(policy->Choose({0, 0}, board, p).host, 1u) << name;
  }
}

TEST(FtPolicyTest, NoLiveHostMeansNoChoiceAndTheTaskWaits) {
  TablePredictor p;
  auto hosts = Hosts(2);
  FakeHealth health;
  health.dead = {0, 1};
  auto policy = Named("ftmct");
  AttachHostHealth(*policy, &health);
  Scheduler s(std::move(policy));
  s.AddReady(0, 0);
  EXPECT_TRUE(s.Schedule({0, &hosts, &p}).empty());
  EXPECT_EQ(s.num_ready(), 1u);
}

TEST(FtPolicyTest, UnusableHostsAreNeverProbed) {
  TablePredictor p;
  auto hosts = Hosts(3);
  hosts[0].usable = false;
  SlotBoard board({0, &hosts, &p});
  FakeHealth health;
  auto policy = Named("ftmct");
  AttachHostHealth(*policy, &health);
  EXPECT_EQ(policy->Choose({0, 0}, board, p).host, 1u);
  EXPECT_EQ(health.probed, (std::vector<HostId>{1}));
}

TEST(FtPolicyTest, WithoutHealthBehavesLikeThePlainPolicy) {
  TablePredictor p;
  p.et = {{{0, 0}, 3}, {{0, 1}, 2}, {{0, 2}, 1}};
  auto hosts = Hosts(3);
  hosts[2].busy_until = {10};
  SlotBoard board({0, &hosts, &p});
  for (auto [ft, plain] : {std::pair{"ftmet", "met"}, {"ftmct", "mct"}}) {
    Policy::Choice a = Named(ft)->Choose({0, 0}, board, p);
    Policy::Choice b = Named(plain)->Choose({0, 0}, board, p);
    EXPECT_EQ(a.host, b.host) << ft;
    EXPECT_DOUBLE_EQ(a.end, b.end) << ft;
  }
}

}  // namespace
}  // namespace gs
