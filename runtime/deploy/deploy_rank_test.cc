// Rank assembly from a real history file: paper 004 table 1 (availability
// and distrust columns) and table 2 (queue waits) encoded as recorded
// checks, failures, probes and jobs, ranked through runtime/host_ranking.
#include "runtime/deploy/deploy_rank.h"

#include <gtest/gtest.h>

#include <map>
#include <tuple>

#include "runtime/base/asio_clock.h"
#include "runtime/deploy/deploy_format.h"
#include "runtime/deploy/deploy_probe.h"
#include "runtime/history/check_pace.h"
#include "runtime/history/history.h"
#include "runtime/history/history_test_util.h"

namespace gs {
namespace {

using testing::TempDir;

struct PaperHost {
  const char* name;
  int na;           // checks not answered of 100 (availability column)
  int trv;          // infrastructure failures (distrust column)
  uint64_t mem_kb;  // physical memory column
  double ftt;       // file transfer time column (s): recorded as the rtt
  double wait;      // table 2 queue wait (s), small jobs
};

// Table 1 and 2 rows, in the paper's order.
constexpr PaperHost kPaper[] = {
    {"fs1.das2.liacs.nl", 0, 0, 1540592, 11.0, 12},
    {"fs0.das2.cs.vu.nl", 12, 5, 1540592, 11.2, 10},
    {"fs3.das2.ewi.tudelft.nl", 39, 6, 1026584, 11.1, 80},
    {"fs2.das2.nikhef.nl", 21, 7, 1540592, 11.3, 135},
};
constexpr char kOp[] = "fastdnaml";
constexpr double kEt = 100;  // the paper gives no ET: equal everywhere

class DeployRankTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.ok());
    auto h = History::Open(dir_.File("history.db"));
    ASSERT_TRUE(h.ok()) << h.status().ToString();
    history_ = std::move(h).value();
    for (const PaperHost& p : kPaper) {
      HostConfig host;
      host.name = p.name;
      host.adapters = {AdapterKind::kSlurm};  // DAS-2 clusters: batch queues
      configs_.push_back(host);
    }
  }

  std::vector<const HostConfig*> Hosts() const {
    std::vector<const HostConfig*> hosts;
    for (const HostConfig& h : configs_) hosts.push_back(&h);
    return hosts;
  }

  // Writes the paper's tables into the history as a probe and a run would.
  void RecordPaperTables() {
    auto run = history_->BeginRun("fastdnaml", "/", 4, 1000);
    ASSERT_TRUE(run.ok());
    Seconds t = 1000;
    JobId job = 0;
    for (const PaperHost& p : kPaper) {
      // The paper's checks come at a regular pace (CheckPace counts an
      // unanswered one a pace after the last).
      for (int i = 0; i < 100; ++i) {
        HostCheck c{p.name, t += kCheckPace, i >= p.na, std::nullopt,
                    CheckSource::kProbe};
        if (c.answered) c.rtt = p.ftt;
        ASSERT_TRUE(history_->RecordHostCheck(c).ok());
      }
      for (int i = 0; i < p.trv; ++i) {
        ASSERT_TRUE(history_
                        ->RecordHostFailure({p.name, t += 1, "connection_lost",
                                             "job crashed", *run, ++job})
                        .ok());
      }
      HostProbeRecord probe;
      probe.host = p.name;
      probe.time = t += 1;
      probe.rtt = p.ftt;
      probe.memory_total = p.mem_kb * 1024;
      probe.memory_available = p.mem_kb * 1024;
      probe.queue_wait = p.wait;
      ASSERT_TRUE(history_->RecordHostProbe(probe).ok());
      JobRecord j;
      j.run = *run;
      j.job = ++job;
      j.operation = kOp;
      j.host = p.name;
      j.started = t += 1;
      j.ended = t += kEt;
      ASSERT_TRUE(history_->RecordJob(j).ok());
    }
  }

  RankReport Rank(RankRequest request) {
    auto inputs = LoadRankInputs(*history_, request.operation);
    EXPECT_TRUE(inputs.ok()) << inputs.status().ToString();
    return AssembleRanking(Hosts(), inputs.ok() ? *inputs : RankInputs{},
                           request);
  }

  static RankRequest Weights(double alpha, double beta, double mu = 1,
                             double gamma = 1) {
    RankRequest r;
    r.operation = kOp;
    r.weights = {alpha, beta, mu, gamma};
    return r;
  }

  static std::vector<std::string> Order(const RankReport& report) {
    std::vector<std::string> names;
    for (const RankRow& row : report.rows) {
      if (row.rank) names.push_back(row.host.substr(0, 3));
    }
    return names;
  }

  static std::map<std::string, const RankRow*> ByHost(const RankReport& r) {
    std::map<std::string, const RankRow*> rows;
    for (const RankRow& row : r.rows) rows[row.host.substr(0, 3)] = &row;
    return rows;
  }

  TempDir dir_;
  std::unique_ptr<History> history_;
  std::vector<HostConfig> configs_;
};

TEST_F(DeployRankTest, Table1AvailabilityAndDistrustColumns) {
  RecordPaperTables();
  RankReport report = Rank(Weights(1, 0));
  auto rows = ByHost(report);
  ASSERT_EQ(rows.size(), 4u);
  const double availability[] = {1.00, 0.88, 0.61, 0.79};
  const int64_t distrust[] = {0, 5, 6, 7};
  int i = 0;
  for (const char* name : {"fs1", "fs0", "fs3", "fs2"}) {
    const RankRow& row = *rows.at(name);
    ASSERT_TRUE(row.rank.has_value()) << name << ": " << row.ineligible;
    EXPECT_NEAR(row.rank->availability, availability[i], 1e-12) << name;
    EXPECT_EQ(row.rank->distrust, distrust[i]) << name;
    EXPECT_EQ(row.facts.attempts, 100) << name;
    ++i;
  }
  // Reliability alone (alpha only): availability first, fs1 best, as the
  // paper's text ranks it.
  EXPECT_EQ(Order(report),
            (std::vector<std::string>{"fs1", "fs0", "fs2", "fs3"}));
  EXPECT_EQ(rows.at("fs1")->rank->rrank, 4);
  EXPECT_EQ(rows.at("fs3")->rank->rrank, 1);
}

TEST_F(DeployRankTest, DistrustFirstGivesTheTableRowOrder) {
  RecordPaperTables();
  RankRequest request = Weights(1, 0);
  request.order = ReliabilityOrder::kDistrustFirst;
  EXPECT_EQ(Order(Rank(request)),
            (std::vector<std::string>{"fs1", "fs0", "fs3", "fs2"}));
}

TEST_F(DeployRankTest, Eq4TimeFromHistoryWithGivenWeights) {
  RecordPaperTables();
  // Time = mu*ET + gamma*FTT + delta, FTT = L (vol 0), delta = queue wait.
  RankReport report = Rank(Weights(0.5, 0.5, /*mu=*/2, /*gamma=*/3));
  auto rows = ByHost(report);
  for (const PaperHost& p : kPaper) {
    const RankRow& row = *rows.at(std::string(p.name).substr(0, 3));
    ASSERT_TRUE(row.rank.has_value()) << p.name;
    EXPECT_DOUBLE_EQ(row.facts.et, kEt) << p.name;
    EXPECT_EQ(row.et_basis, ExecTimeEstimator::Basis::kThisHost);
    EXPECT_EQ(row.delta_source, DeltaSource::kQueueWait);
    EXPECT_DOUBLE_EQ(row.facts.queue_wait, p.wait);
    EXPECT_NEAR(row.rank->ftt, p.ftt, 1e-12) << p.name;
    EXPECT_NEAR(row.rank->time, 2 * kEt + 3 * p.ftt + p.wait, 1e-9) << p.name;
  }
}

TEST_F(DeployRankTest, Eq5GrankWithGivenWeights) {
  RecordPaperTables();
  // Times (mu = gamma = 1): fs0 121.2 < fs1 123.0 < fs3 191.1 < fs2 246.3,
  // so prank fs0 4, fs1 3, fs3 2, fs2 1; rrank fs1 4, fs0 3, fs2 2, fs3 1.
  RankReport report = Rank(Weights(0.7, 0.3));
  auto rows = ByHost(report);
  const std::map<std::string, std::pair<int, int>> ranks = {
      {"fs1", {4, 3}}, {"fs0", {3, 4}}, {"fs2", {2, 1}}, {"fs3", {1, 2}}};
  for (const auto& [name, rp] : ranks) {
    const HostRank& r = *rows.at(name)->rank;
    EXPECT_EQ(r.rrank, rp.first) << name;
    EXPECT_EQ(r.prank, rp.second) << name;
    EXPECT_NEAR(r.grank, 0.7 * rp.first + 0.3 * rp.second, 1e-12) << name;
  }
  EXPECT_EQ(Order(report),
            (std::vector<std::string>{"fs1", "fs0", "fs2", "fs3"}));
  // Execution time only: fs0 (shortest queue) first, as the paper says.
  EXPECT_EQ(Order(Rank(Weights(0, 1))).front(), "fs0");
}

TEST_F(DeployRankTest, NotEnoughMemoryIsIneligibleWithTheReason) {
  RecordPaperTables();
  RankRequest request = Weights(0.5, 0.5);
  request.required_memory = uint64_t{1200000} * 1024;
  RankReport report = Rank(request);
  ASSERT_EQ(report.rows.size(), 4u);
  const RankRow& last = report.rows.back();
  EXPECT_EQ(last.host, "fs3.das2.ewi.tudelft.nl");
  EXPECT_FALSE(last.rank.has_value());
  EXPECT_NE(last.ineligible.find("not enough free memory"), std::string::npos);
  // Ranks are over the three eligible hosts.
  for (const RankRow& row : report.rows) {
    if (row.rank) {
      EXPECT_LE(row.rank->rrank, 3);
    }
  }
}

TEST_F(DeployRankTest, DistrustRisesForInfrastructureNotApplicationFailures) {
  auto distrust = [&] {
    RankReport report = Rank(Weights(1, 1));
    return ByHost(report).at("fs1")->facts.distrust;
  };
  auto run = history_->BeginRun("app", "/", 1, 10);
  ASSERT_TRUE(run.ok());
  EXPECT_EQ(distrust(), 0);

  JobRecord app;
  app.run = *run;
  app.job = 1;
  app.operation = kOp;
  app.host = kPaper[0].name;
  app.started = 11;
  app.ended = 12;
  app.outcome = OutcomeClass::kApp;
  app.exit_code = 1;
  app.error = "exit code 1";
  ASSERT_TRUE(history_->RecordJob(app).ok());
  EXPECT_EQ(distrust(), 0) << "an application failure charged the host";

  ASSERT_TRUE(history_
                  ->RecordHostFailure({kPaper[0].name, 13, "connection_lost",
                                       "ssh connection lost", *run, 2})
                  .ok());
  EXPECT_EQ(distrust(), 1);
}

TEST_F(DeployRankTest, NeverProbedHostsAreNotedAndCountAsAvailable) {
  RankReport report = Rank(Weights(0.5, 0.5));
  ASSERT_EQ(report.rows.size(), 4u);
  for (const RankRow& row : report.rows) {
    ASSERT_TRUE(row.rank.has_value());
    EXPECT_DOUBLE_EQ(row.rank->availability, 1.0);
    EXPECT_FALSE(row.facts.free_memory.has_value());
  }
  ASSERT_FALSE(report.notes.empty());
  std::string notes;
  for (const std::string& n : report.notes) notes += n + "\n";
  EXPECT_NE(notes.find("no probe measured"), std::string::npos) << notes;
  EXPECT_NE(notes.find("no successful job of 'fastdnaml'"), std::string::npos)
      << notes;
}

TEST_F(DeployRankTest, VolumeFromTheOperationsInputsAndMeasuredBandwidth) {
  HostConfig remote;
  remote.name = "remote";
  remote.adapters = {AdapterKind::kSsh};
  configs_ = {remote};
  auto run = history_->BeginRun("app", "/", 1, 10);
  ASSERT_TRUE(run.ok());
  for (uint64_t bytes : {uint64_t{100} << 20, uint64_t{300} << 20}) {
    JobRecord j;
    j.run = *run;
    j.job = bytes;
    j.operation = kOp;
    j.host = "remote";
    j.started = 20;
    j.ended = 30;
    j.bytes_in = bytes;
    ASSERT_TRUE(history_->RecordJob(j).ok());
  }
  HostProbeRecord probe;
  probe.host = "remote";
  probe.time = 40;
  probe.rtt = 0.01;
  probe.bandwidth = 100e6;
  probe.bandwidth_spread = 5e6;
  ASSERT_TRUE(history_->RecordHostProbe(probe).ok());
  // A later probe whose transfer failed keeps the measured bandwidth and
  // its spread.
  probe.time = 50;
  probe.rtt = 0.02;
  probe.rtt_spread = 0.001;
  probe.bandwidth.reset();
  probe.bandwidth_spread.reset();
  ASSERT_TRUE(history_->RecordHostProbe(probe).ok());

  RankReport report = Rank(Weights(1, 1));
  EXPECT_DOUBLE_EQ(report.volume, double{200 << 20});
  const RankRow& row = report.rows.at(0);
  EXPECT_DOUBLE_EQ(row.facts.bandwidth, 100e6);
  EXPECT_DOUBLE_EQ(row.facts.latency, 0.02);
  EXPECT_DOUBLE_EQ(row.facts.latency_spread, 0.001);
  EXPECT_DOUBLE_EQ(row.facts.bandwidth_spread, 5e6);
  EXPECT_NEAR(row.rank->ftt, 0.02 + double{200 << 20} / 100e6, 1e-12);
  EXPECT_NEAR(row.rank->time, 10 + row.rank->ftt, 1e-9);

  RankRequest request = Weights(1, 1);
  request.volume = 0;
  EXPECT_DOUBLE_EQ(Rank(request).rows.at(0).rank->ftt, 0.02);
}

TEST_F(DeployRankTest, UnmeasuredHostsGetTheMeanNotAFreeAdvantage) {
  HostConfig probed = configs_[0], unprobed = configs_[1];
  configs_ = {probed, unprobed};
  for (double rtt : {2.0, 4.0}) {
    HostProbeRecord p;
    p.host = probed.name;
    p.time = rtt;
    p.rtt = rtt;
    p.bandwidth = rtt * 1e6;
    ASSERT_TRUE(history_->RecordHostProbe(p).ok());
  }
  RankRequest request = Weights(0, 1);
  request.volume = 8e6;
  RankReport report = Rank(request);
  auto rows = ByHost(report);
  const RankRow& u = *rows.at(std::string(unprobed.name).substr(0, 3));
  EXPECT_DOUBLE_EQ(u.facts.latency, 4.0);  // the newest of the one probed
  EXPECT_DOUBLE_EQ(u.facts.bandwidth, 4e6);
  EXPECT_EQ(u.rank->prank, rows.at("fs1")->rank->prank);  // a tie, no win
}

TEST(LoadDelayTest, ExtraTimeFromSharingTheCores) {
  EXPECT_DOUBLE_EQ(LoadDelay(100, 0, 4), 0);    // idle: no wait
  EXPECT_DOUBLE_EQ(LoadDelay(100, 3, 4), 0);    // a core still free
  EXPECT_DOUBLE_EQ(LoadDelay(100, 7, 4), 100);  // half a core: twice as long
  EXPECT_DOUBLE_EQ(LoadDelay(100, 7, 0), 0);    // cores unknown
  EXPECT_DOUBLE_EQ(LoadDelay(0, 7, 4), 0);
}

TEST_F(DeployRankTest, QueueWaitFromTheHistoryOfJobsOfTheHostsSize) {
  RecordPaperTables();
  // fs1's jobs of its size (1 core, no walltime) waited 30 and 50 s; a
  // 16-core job waited 900 s and a 4-node one 4000 s: not like them.
  for (auto [cores, nodes, wait] :
       {std::tuple{1, 1, 30.0}, {16, 1, 900.0}, {1, 4, 4000.0}, {1, 1, 50.0}}) {
    QueueWait w;
    w.host = "fs1.das2.liacs.nl";
    w.cores = cores;
    w.nodes = nodes;
    w.submitted = 5000;
    w.started = 5000 + wait;
    ASSERT_TRUE(history_->RecordQueueWait(w).ok());
  }
  RankReport report = Rank(Weights(0.5, 0.5));
  auto rows = ByHost(report);
  const RankRow& fs1 = *rows.at("fs1");
  EXPECT_EQ(fs1.delta_source, DeltaSource::kQueueWait);
  EXPECT_DOUBLE_EQ(fs1.facts.queue_wait, 40);
  EXPECT_EQ(fs1.delta_basis, "history of 2 jobs of this size");
  // A host of 16-core jobs: the 900 s one.
  configs_[0].batch.cpus_per_task = 16;
  report = Rank(Weights(0.5, 0.5));
  EXPECT_DOUBLE_EQ(ByHost(report).at("fs1")->facts.queue_wait, 900);
  // Hosts without waits in the history keep their probe's figure.
  EXPECT_DOUBLE_EQ(ByHost(report).at("fs0")->facts.queue_wait, 10);
}

TEST_F(DeployRankTest, QueueWaitFromTheBatchSystemsEstimateWhileAhead) {
  RecordPaperTables();
  const Seconds now = WallClockNow();
  // fs1's probe 10 s ago: Slurm said its job would start in 100 s; fs0's
  // said so 1000 s ago: that start has passed, so its history answers.
  for (auto [host, age] :
       {std::pair{"fs1.das2.liacs.nl", 10.0}, {"fs0.das2.cs.vu.nl", 1000.0}}) {
    HostProbeRecord probe;
    probe.host = host;
    probe.time = now - age;
    probe.rtt = 11;
    probe.queue_wait = 100;
    probe.queue_wait_basis = "slurm estimate";
    ASSERT_TRUE(history_->RecordHostProbe(probe).ok());
  }
  QueueWait w;
  w.host = "fs0.das2.cs.vu.nl";
  w.submitted = 5000;
  w.started = 5007;
  ASSERT_TRUE(history_->RecordQueueWait(w).ok());
  RankReport report = Rank(Weights(0.5, 0.5));
  auto rows = ByHost(report);
  EXPECT_NEAR(rows.at("fs1")->facts.queue_wait, 90, 5);
  EXPECT_EQ(rows.at("fs1")->delta_basis, "slurm estimate");
  EXPECT_DOUBLE_EQ(rows.at("fs0")->facts.queue_wait, 7);
  EXPECT_EQ(rows.at("fs0")->delta_basis, "history of 1 job of this size");
  // The listing says where each figure comes from.
  EXPECT_NE(FormatRankReport(report).find("queue_wait: slurm estimate"),
            std::string::npos);
}

TEST(DeployFormatTest, TheProbeTableSaysWhereAQueueWaitComesFrom) {
  HostProbeResult r;
  r.host = "cluster";
  r.adapter = "slurm";
  r.state = ProbeState::kAnswered;
  HostProbe facts;
  facts.queue_wait = 600;
  facts.queue_wait_basis = "slurm estimate";
  r.facts = facts;
  const std::string table = FormatProbeResults({r});
  EXPECT_NE(table.find("10.0 min (slurm estimate)"), std::string::npos)
      << table;
}

}  // namespace
}  // namespace gs
