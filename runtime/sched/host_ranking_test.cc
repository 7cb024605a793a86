#include "runtime/sched/host_ranking.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace gs {
namespace {

std::vector<std::string> Names(const Ranking& ranking) {
  std::vector<std::string> names;
  for (const HostRank& r : ranking.ranked) names.push_back(r.name);
  return names;
}

const HostRank& Find(const Ranking& ranking, const std::string& name) {
  for (const HostRank& r : ranking.ranked) {
    if (r.name == name) return r;
  }
  ADD_FAILURE() << name << " not ranked";
  static const HostRank kNone;
  return kNone;
}

// Paper 004 table 1 (availability, distrust, memory in KB, file transfer
// time in s) and table 2 (queue wait, small jobs), encoded as accumulated
// counts over 100 availability checks per host. ET is the same everywhere
// (the paper gives none), so Time differs by FTT and queue wait only.
std::vector<HostFacts> PaperTable1() {
  auto host = [](std::string name, int64_t na, int64_t trv, uint64_t mem_kb,
                 double ftt, double wait) {
    HostFacts h;
    h.name = std::move(name);
    h.attempts = 100;
    h.not_answered = na;
    h.distrust = trv;
    h.free_memory = mem_kb * 1024;
    h.et = 100.0;
    h.latency = ftt;  // the paper measured FTT directly; vol = 0
    h.queue_wait = wait;
    return h;
  };
  return {
      host("fs1.das2.liacs.nl", 0, 0, 1540592, 11.0, 12),
      host("fs0.das2.cs.vu.nl", 12, 5, 1540592, 11.2, 10),
      host("fs3.das2.ewi.tudelft.nl", 39, 6, 1026584, 11.1, 80),
      host("fs2.das2.nikhef.nl", 21, 7, 1540592, 11.3, 135),
  };
}

TEST(HostRankingTest, Eq1AvailabilityFromCounts) {
  EXPECT_DOUBLE_EQ(Availability(0, 100), 1.00);
  EXPECT_DOUBLE_EQ(Availability(12, 100), 0.88);
  EXPECT_DOUBLE_EQ(Availability(39, 100), 0.61);
  EXPECT_DOUBLE_EQ(Availability(21, 100), 0.79);
  EXPECT_DOUBLE_EQ(Availability(0, 0), 1.0);  // never checked: blank record
}

TEST(HostRankingTest, Table1ColumnsAndReliabilityOrder) {
  RankOptions options;
  options.alpha = 1;
  options.beta = 0;  // reliability only
  Ranking ranking = RankHosts(PaperTable1(), options);
  ASSERT_TRUE(ranking.ineligible.empty());
  EXPECT_NEAR(Find(ranking, "fs1.das2.liacs.nl").availability, 1.00, 1e-12);
  EXPECT_NEAR(Find(ranking, "fs0.das2.cs.vu.nl").availability, 0.88, 1e-12);
  EXPECT_NEAR(Find(ranking, "fs3.das2.ewi.tudelft.nl").availability, 0.61,
              1e-12);
  EXPECT_NEAR(Find(ranking, "fs2.das2.nikhef.nl").availability, 0.79, 1e-12);
  EXPECT_EQ(Find(ranking, "fs0.das2.cs.vu.nl").distrust, 5);
  EXPECT_EQ(Find(ranking, "fs2.das2.nikhef.nl").distrust, 7);
  // Availability first: fs2 (0.79) is more reliable than fs3 (0.61). The
  // paper's text: fs1 is "the most appropriate and reliable resource", fs2
  // "less reliable" than fs1.
  EXPECT_EQ(Names(ranking),
            (std::vector<std::string>{"fs1.das2.liacs.nl", "fs0.das2.cs.vu.nl",
                                      "fs2.das2.nikhef.nl",
                                      "fs3.das2.ewi.tudelft.nl"}));
  EXPECT_EQ(Find(ranking, "fs1.das2.liacs.nl").rrank, 4);  // most reliable
  EXPECT_EQ(Find(ranking, "fs0.das2.cs.vu.nl").rrank, 3);
  EXPECT_EQ(Find(ranking, "fs2.das2.nikhef.nl").rrank, 2);
  EXPECT_EQ(Find(ranking, "fs3.das2.ewi.tudelft.nl").rrank, 1);  // least
}

TEST(HostRankingTest, DistrustFirstGivesTheTablesRowOrder) {
  RankOptions options;
  options.beta = 0;
  options.order = ReliabilityOrder::kDistrustFirst;
  EXPECT_EQ(Names(RankHosts(PaperTable1(), options)),
            (std::vector<std::string>{"fs1.das2.liacs.nl", "fs0.das2.cs.vu.nl",
                                      "fs3.das2.ewi.tudelft.nl",
                                      "fs2.das2.nikhef.nl"}));
}

TEST(HostRankingTest, HostsWithoutEnoughMemoryAreIneligible) {
  RankOptions options;
  options.required_memory = 1200ull * 1024 * 1024;  // more than fs3 has
  Ranking ranking = RankHosts(PaperTable1(), options);
  ASSERT_EQ(ranking.ineligible.size(), 1u);
  EXPECT_EQ(ranking.ineligible[0].name, "fs3.das2.ewi.tudelft.nl");
  EXPECT_NE(ranking.ineligible[0].reason.find("not enough free memory"),
            std::string::npos);
  // Ranks are over the eligible hosts only: 1..3.
  ASSERT_EQ(ranking.ranked.size(), 3u);
  EXPECT_EQ(Find(ranking, "fs1.das2.liacs.nl").rrank, 3);
  EXPECT_EQ(Find(ranking, "fs2.das2.nikhef.nl").rrank, 1);
}

TEST(HostRankingTest, UnknownMemoryIsNotExcluded) {
  std::vector<HostFacts> hosts = PaperTable1();
  hosts[2].free_memory.reset();
  RankOptions options;
  options.required_memory = 1200ull * 1024 * 1024;
  EXPECT_TRUE(RankHosts(hosts, options).ineligible.empty());
}

TEST(HostRankingTest, InconsistentCountsAreIneligible) {
  std::vector<HostFacts> hosts = PaperTable1();
  hosts[0].not_answered = 101;
  Ranking ranking = RankHosts(hosts, RankOptions());
  ASSERT_EQ(ranking.ineligible.size(), 1u);
  EXPECT_NE(ranking.ineligible[0].reason.find("inconsistent"),
            std::string::npos);
}

TEST(HostRankingTest, Eq4TimeWithWeightsAndTransfer) {
  HostFacts h;
  h.et = 10;
  h.latency = 0.1;
  h.bandwidth = 1e8;  // 100 MB/s
  h.queue_wait = 3;
  RankOptions options;
  options.mu = 2;
  options.gamma = 0.5;
  options.volume = 1e9;
  EXPECT_DOUBLE_EQ(FileTransferTime(h, options.volume), 10.1);
  EXPECT_DOUBLE_EQ(PredictedTime(h, options), 2 * 10 + 0.5 * 10.1 + 3);
  h.bandwidth = 0;  // unknown: only the latency is counted
  EXPECT_DOUBLE_EQ(FileTransferTime(h, options.volume), 0.1);
}

TEST(HostRankingTest, Table2PrankFavoursTheShortQueue) {
  RankOptions options;  // mu = gamma = 1
  Ranking ranking = RankHosts(PaperTable1(), options);
  EXPECT_DOUBLE_EQ(Find(ranking, "fs1.das2.liacs.nl").time, 100 + 11.0 + 12);
  EXPECT_DOUBLE_EQ(Find(ranking, "fs0.das2.cs.vu.nl").time, 100 + 11.2 + 10);
  EXPECT_EQ(Find(ranking, "fs0.das2.cs.vu.nl").prank, 4);  // fastest
  EXPECT_EQ(Find(ranking, "fs1.das2.liacs.nl").prank, 3);
  EXPECT_EQ(Find(ranking, "fs3.das2.ewi.tudelft.nl").prank, 2);
  EXPECT_EQ(Find(ranking, "fs2.das2.nikhef.nl").prank, 1);  // slowest
}

// Two loopback hosts whose round trips differ by less than their samples
// spread: neither is faster (issue 36: one noisy sample decided the rank).
// Beyond the spread the faster one wins.
TEST(HostRankingTest, TimesWithinTheMeasurementSpreadTie) {
  auto host = [](std::string name, Seconds rtt, Seconds spread) {
    HostFacts h;
    h.name = std::move(name);
    h.et = 1;
    h.latency = rtt;
    h.latency_spread = spread;
    h.bandwidth = 1e8;
    h.bandwidth_spread = 1e7;
    return h;
  };
  RankOptions options;
  options.volume = 1e6;  // 10 ms at 100 MB/s, give or take 1 ms
  EXPECT_NEAR(PredictedTimeSpread(host("a", 0, 0.0002), options),
              0.0002 + 1e6 * 1e7 / 1e16, 1e-12);
  Ranking close = RankHosts(
      {host("a", 0.00030, 0.0002), host("b", 0.00020, 0.0002)}, options);
  EXPECT_EQ(Find(close, "a").prank, Find(close, "b").prank);
  Ranking apart = RankHosts(
      {host("a", 0.00030, 0.0002), host("b", 0.0050, 0.0002)}, options);
  EXPECT_GT(Find(apart, "a").prank, Find(apart, "b").prank);
}

TEST(HostRankingTest, Eq5WeightsChooseBetweenReliabilityAndSpeed) {
  // The paper: fs1 "may be chosen if the reliability parameter is more
  // important", fs0 "when the execution time is more important".
  RankOptions reliability;
  reliability.alpha = 1;
  reliability.beta = 0;
  EXPECT_EQ(RankHosts(PaperTable1(), reliability).ranked[0].name,
            "fs1.das2.liacs.nl");
  RankOptions speed;
  speed.alpha = 0;
  speed.beta = 1;
  EXPECT_EQ(RankHosts(PaperTable1(), speed).ranked[0].name,
            "fs0.das2.cs.vu.nl");

  RankOptions mixed;
  mixed.alpha = 0.6;
  mixed.beta = 0.4;
  Ranking ranking = RankHosts(PaperTable1(), mixed);
  // grank = 0.6 rrank + 0.4 prank: fs1 3.6, fs0 3.4, fs2 1.6, fs3 1.4.
  EXPECT_DOUBLE_EQ(Find(ranking, "fs1.das2.liacs.nl").grank, 0.6 * 4 + 0.4 * 3);
  EXPECT_DOUBLE_EQ(Find(ranking, "fs0.das2.cs.vu.nl").grank, 0.6 * 3 + 0.4 * 4);
  EXPECT_DOUBLE_EQ(Find(ranking, "fs2.das2.nikhef.nl").grank,
                   0.6 * 2 + 0.4 * 1);
  EXPECT_DOUBLE_EQ(Find(ranking, "fs3.das2.ewi.tudelft.nl").grank,
                   0.6 * 1 + 0.4 * 2);
  EXPECT_EQ(Names(ranking),
            (std::vector<std::string>{"fs1.das2.liacs.nl", "fs0.das2.cs.vu.nl",
                                      "fs2.das2.nikhef.nl",
                                      "fs3.das2.ewi.tudelft.nl"}));
}

TEST(HostRankingTest, TiesShareTheLowerRankAndOrderIsStable) {
  HostFacts a;
  a.name = "b-host";
  a.attempts = 10;
  a.not_answered = 1;
  a.et = 5;
  HostFacts b = a;
  b.name = "a-host";
  HostFacts c = a;
  c.name = "c-host";
  c.attempts = 0;  // never checked: availability 1
  c.not_answered = 0;
  Ranking ranking = RankHosts({a, b, c}, RankOptions());
  EXPECT_EQ(Find(ranking, "a-host").rrank, 1);
  EXPECT_EQ(Find(ranking, "b-host").rrank, 1);
  EXPECT_EQ(Find(ranking, "c-host").rrank, 3);
  EXPECT_EQ(Find(ranking, "a-host").prank, 1);  // all equal times
  EXPECT_EQ(Find(ranking, "c-host").prank, 1);
  EXPECT_EQ(Names(ranking),
            (std::vector<std::string>{"c-host", "a-host", "b-host"}));
}

TEST(HostRankingTest, AvailabilityIsComparedExactly) {
  // 1/3 vs 2/6 are equal fractions, so distrust decides.
  HostFacts a;
  a.name = "a";
  a.attempts = 3;
  a.not_answered = 1;
  a.distrust = 2;
  HostFacts b;
  b.name = "b";
  b.attempts = 6;
  b.not_answered = 2;
  b.distrust = 1;
  EXPECT_TRUE(MoreReliable(b, a, ReliabilityOrder::kAvailabilityFirst));
  EXPECT_FALSE(MoreReliable(a, b, ReliabilityOrder::kAvailabilityFirst));
}

TEST(HostRankingTest, EmptyInputGivesEmptyRanking) {
  Ranking ranking = RankHosts({}, RankOptions());
  EXPECT_TRUE(ranking.ranked.empty());
  EXPECT_TRUE(ranking.ineligible.empty());
}

}  // namespace
}  // namespace gs
