// gsdeploy probe end to end on hosts a test can stop: availability from
// probes (paper 004 eq. 1-2) through the history into the ranking, run
// against every kind of TestHostSetKinds() (gsdeploy_test_hosts.h).
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <mutex>
#include <thread>

#include "adapters/adapter_defaults.h"
#include "runtime/base/asio_clock.h"
#include "runtime/deploy/deploy_probe.h"
#include "runtime/deploy/deploy_rank.h"
#include "tests/gsdeploy_test_hosts.h"
#include "tests/support/temp_dir.h"

namespace gs {
namespace {

class GsdeployProbeTest : public ::testing::TestWithParam<TestHostSetKind> {
 protected:
  void SetUp() override {
    if (std::string why = GetParam().skip_reason(); !why.empty()) {
      GTEST_SKIP() << why;
    }
    hosts_ = GetParam().make();
    auto history = History::Open(hosts_->config().runtime.history);
    ASSERT_TRUE(history.ok()) << history.status().ToString();
    history_ = std::move(history).value();
  }

  std::vector<HostProbeResult> ProbeAndRecord() {
    auto hosts = SelectHosts(hosts_->config(), "");
    EXPECT_TRUE(hosts.ok());
    ProbeOptions options;
    options.connect_timeout = 20;
    options.probe_timeout = 20;
    std::vector<HostProbeResult> results =
        ProbeHosts(*hosts, hosts_->maker(), options);
    Status s = RecordProbeResults(*history_, hosts_->config(), results);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return results;
  }

  RankReport Rank() {
    auto inputs = LoadRankInputs(*history_, "");
    EXPECT_TRUE(inputs.ok()) << inputs.status().ToString();
    RankRequest request;
    request.weights = {1, 0, 1, 1};  // reliability only
    return AssembleRanking(*SelectHosts(hosts_->config(), ""), *inputs,
                           request);
  }

  std::string First() const { return hosts_->config().hosts[0].name; }
  std::string Second() const { return hosts_->config().hosts[1].name; }

  std::unique_ptr<TestHostSet> hosts_;
  std::unique_ptr<History> history_;
};

TEST_P(GsdeployProbeTest, StoppedHostBetweenTwoProbesHasAvailabilityHalf) {
  std::vector<HostProbeResult> first = ProbeAndRecord();
  ASSERT_EQ(first.size(), hosts_->config().hosts.size());
  for (const HostProbeResult& r : first) {
    EXPECT_EQ(r.state, ProbeState::kAnswered) << r.host << ": " << r.error;
  }
  // Equal records: equally reliable.
  RankReport before = Rank();
  ASSERT_EQ(before.rows.size(), 2u);
  EXPECT_EQ(before.rows[0].rank->rrank, before.rows[1].rank->rrank);
  hosts_->Stop(First());
  std::vector<HostProbeResult> second = ProbeAndRecord();
  EXPECT_EQ(second[0].state, ProbeState::kNotAnswered);
  EXPECT_FALSE(second[0].error.empty());
  EXPECT_EQ(second[1].state, ProbeState::kAnswered) << second[1].error;

  auto stopped = history_->LoadHostReliability(First());
  ASSERT_TRUE(stopped.ok());
  EXPECT_EQ(stopped->attempts, 2);
  EXPECT_EQ(stopped->not_answered, 1);
  EXPECT_EQ(stopped->distrust, 0);  // not answering is availability only

  RankReport report = Rank();
  ASSERT_EQ(report.rows.size(), hosts_->config().hosts.size());
  EXPECT_EQ(report.rows.front().host, Second());
  EXPECT_EQ(report.rows.back().host, First());
  ASSERT_TRUE(report.rows.back().rank.has_value());
  EXPECT_DOUBLE_EQ(report.rows.back().rank->availability, 0.5);
  EXPECT_DOUBLE_EQ(report.rows.front().rank->availability, 1.0);
  EXPECT_LT(report.rows.back().rank->rrank, report.rows.front().rank->rrank);

  hosts_->Start(First());
  std::vector<HostProbeResult> third = ProbeAndRecord();
  EXPECT_EQ(third[0].state, ProbeState::kAnswered) << third[0].error;
  auto again = history_->LoadHostReliability(First());
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->attempts, 3);
  EXPECT_EQ(again->not_answered, 1);
}

TEST_P(GsdeployProbeTest, AnsweredHostsReportTheirFacts) {
  std::vector<HostProbeResult> results = ProbeAndRecord();
  for (const HostProbeResult& r : results) {
    ASSERT_TRUE(r.facts.has_value()) << r.host << ": " << r.error;
    EXPECT_GE(r.facts->cores, 1u);
    EXPECT_GT(r.facts->memory_total, 0u);
    EXPECT_LE(r.facts->memory_available, r.facts->memory_total);
    EXPECT_GE(r.facts->rtt, 0);
    EXPECT_GE(r.facts->load1, 0);
  }
  auto latest = history_->LoadLatestProbes();
  ASSERT_TRUE(latest.ok());
  ASSERT_EQ(latest->size(), results.size());
  EXPECT_EQ((*latest)[0].cores, results[0].facts->cores);
  EXPECT_EQ((*latest)[0].memory_total, results[0].facts->memory_total);
}

INSTANTIATE_TEST_SUITE_P(Hosts, GsdeployProbeTest,
                         ::testing::ValuesIn(TestHostSetKinds()),
                         [](const auto& info) { return info.param.name; });

// --- Single-host cases with scripted adapters. ---

// Connects at once; Probe answers with `probe`; Put copies into `dir`.
class ScriptedAdapter : public AdapterDefaults {
 public:
  ScriptedAdapter(boost::asio::io_context& io, StatusOr<HostProbe> probe,
                  std::string dir)
      : io_(io), probe_(std::move(probe)), dir_(std::move(dir)) {}
  std::string_view kind() const override { return "scripted"; }
  Status Connect() override { return Status::Ok(); }
  int FreeSlots() const override { return 1; }
  void Submit(JobSpec, DoneCallback) override {}
  void Cancel(JobId) override {}
  void Shutdown() override {}
  bool shares_master_files() const override { return dir_.empty(); }
  std::string work_dir() const override { return dir_; }
  void Put(std::string from, std::string to, StatusCallback done) override {
    std::error_code ec;
    std::filesystem::copy_file(from, to, ec);
    puts.push_back(to);
    put_sizes->push_back(std::filesystem::file_size(from));
    boost::asio::post(io_, [done, ec] {
      done(ec ? Status::IoError(ec.message()) : Status::Ok());
    });
  }
  void Remove(std::string path) override { std::filesystem::remove(path); }
  void Probe(ProbeCallback done) override {
    StatusOr<HostProbe> p = probe_;
    if (p.ok() && rtts && !rtts->empty()) {
      p.value().rtt = rtts->front();
      rtts->pop_front();
    }
    boost::asio::post(io_, [done, p = std::move(p)] { done(p); });
  }
  std::vector<std::string> puts;
  // Shared with the test: ProbeHost destroys the adapter before it returns.
  std::shared_ptr<std::vector<uint64_t>> put_sizes =
      std::make_shared<std::vector<uint64_t>>();
  std::shared_ptr<std::deque<Seconds>> rtts;  // answered by the next probes

 private:
  boost::asio::io_context& io_;
  StatusOr<HostProbe> probe_;
  std::string dir_;
};

HostConfig OneHost(const std::string& name) {
  HostConfig h;
  h.name = name;
  h.adapters = {AdapterKind::kSsh};
  return h;
}

AdapterMaker Scripted(StatusOr<HostProbe> probe, std::string dir = "") {
  return [probe, dir](const HostConfig&, boost::asio::io_context& io,
                      Clock&) -> StatusOr<std::unique_ptr<Adapter>> {
    return std::unique_ptr<Adapter>(
        std::make_unique<ScriptedAdapter>(io, probe, dir));
  };
}

HostProbe SomeFacts() {
  HostProbe p;
  p.rtt = 0.001;
  p.cores = 2;
  p.memory_total = 1 << 30;
  p.memory_available = 1 << 29;
  return p;
}

TEST(GsdeployProbeSingleTest, TimedTransferMeasuresBandwidthAndCleansUp) {
  TempDir remote;
  TempDir scratch;
  HostConfig host = OneHost("far");
  ProbeOptions options;
  options.transfer_bytes = 1 << 20;
  options.scratch_dir = scratch.path();
  HostProbeResult r =
      ProbeHost(host, Scripted(SomeFacts(), remote.path()), options);
  ASSERT_EQ(r.state, ProbeState::kAnswered) << r.error;
  EXPECT_FALSE(r.shares_files);
  ASSERT_TRUE(r.facts.has_value());
  EXPECT_GT(r.facts->bandwidth, 0) << r.error;
  EXPECT_TRUE(r.error.empty()) << r.error;
  EXPECT_TRUE(std::filesystem::is_empty(remote.path()));
  EXPECT_TRUE(std::filesystem::is_empty(scratch.path()));
}

// One slow answer among five does not decide the round trip (issue 36).
TEST(GsdeployProbeSingleTest, RoundTripIsTheMedianOfFiveSamples) {
  auto rtts = std::make_shared<std::deque<Seconds>>(
      std::deque<Seconds>{0.050, 0.002, 0.001, 0.004, 0.003});
  AdapterMaker make = [&](const HostConfig&, boost::asio::io_context& io,
                          Clock&) -> StatusOr<std::unique_ptr<Adapter>> {
    auto a = std::make_unique<ScriptedAdapter>(io, SomeFacts(), "");
    a->rtts = rtts;
    return std::unique_ptr<Adapter>(std::move(a));
  };
  ProbeOptions options;
  HostProbeResult r = ProbeHost(OneHost("far"), make, options);
  ASSERT_EQ(r.state, ProbeState::kAnswered) << r.error;
  ASSERT_TRUE(r.facts.has_value());
  EXPECT_DOUBLE_EQ(r.facts->rtt, 0.003);
  EXPECT_DOUBLE_EQ(r.facts->rtt_spread, (0.050 - 0.001) / 2);
  EXPECT_TRUE(rtts->empty());  // all five asked
}

// Transfers grow from the first size until one lasts a second at a
// stable rate (here: never, so up to 16 times the first size).
TEST(GsdeployProbeSingleTest, TransfersGrowUntilLongEnough) {
  TempDir remote;
  TempDir scratch;
  auto sizes = std::make_shared<std::vector<uint64_t>>();
  AdapterMaker make = [&](const HostConfig&, boost::asio::io_context& io,
                          Clock&) -> StatusOr<std::unique_ptr<Adapter>> {
    auto a = std::make_unique<ScriptedAdapter>(io, SomeFacts(), remote.path());
    a->put_sizes = sizes;
    return std::unique_ptr<Adapter>(std::move(a));
  };
  ProbeOptions options;
  options.transfer_bytes = 64 << 10;
  options.scratch_dir = scratch.path();
  HostProbeResult r = ProbeHost(OneHost("far"), make, options);
  ASSERT_EQ(r.state, ProbeState::kAnswered) << r.error;
  const uint64_t first = 64 << 10;
  EXPECT_EQ(*sizes, (std::vector<uint64_t>{first, 2 * first, 4 * first,
                                           8 * first, 16 * first}));
  ASSERT_TRUE(r.facts.has_value());
  EXPECT_GT(r.facts->bandwidth, 0);
  EXPECT_TRUE(std::filesystem::is_empty(remote.path()));
}

TEST(GsdeployProbeSingleTest, FailedProbeAfterConnectChargesOnlyHostFaults) {
  TempDir dir;
  auto history = History::Open(dir / "history.db");
  ASSERT_TRUE(history.ok());
  Config config;
  config.hosts = {OneHost("lossy"), OneHost("old")};
  std::vector<HostProbeResult> results = {
      ProbeHost(config.hosts[0],
                Scripted(Status::Unavailable("connection reset")), {}),
      ProbeHost(config.hosts[1],
                Scripted(Status::FailedPrecondition("cannot be probed")), {})};
  EXPECT_EQ(results[0].state, ProbeState::kAnswered);
  EXPECT_EQ(results[0].failure_kind, "probe_failed");
  EXPECT_TRUE(results[1].failure_kind.empty());
  ASSERT_TRUE(RecordProbeResults(**history, config, results).ok());
  auto lossy = (*history)->LoadHostReliability("lossy");
  auto old = (*history)->LoadHostReliability("old");
  ASSERT_TRUE(lossy.ok() && old.ok());
  EXPECT_EQ(lossy->distrust, 1);
  EXPECT_EQ(lossy->not_answered, 0);
  EXPECT_EQ(old->distrust, 0);
}

TEST(GsdeployProbeSingleTest, HostsWithoutAnAdapterAreSkippedNotCounted) {
  TempDir dir;
  auto history = History::Open(dir / "history.db");
  ASSERT_TRUE(history.ok());
  Config config;
  config.runtime.work_dir = dir.path();
  config.hosts = {OneHost("n1")};
  auto hosts = SelectHosts(config, "");
  // As the registry answers for a kind this build lacks.
  AdapterMaker none = [](const HostConfig&, boost::asio::io_context&,
                         Clock&) -> StatusOr<std::unique_ptr<Adapter>> {
    return Status::Unavailable("adapter ssh is not available in this build");
  };
  std::vector<HostProbeResult> results = ProbeHosts(*hosts, none, {});
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].state, ProbeState::kSkipped);
  ASSERT_TRUE(RecordProbeResults(**history, config, results).ok());
  auto n1 = (*history)->LoadHostReliability("n1");
  ASSERT_TRUE(n1.ok());
  EXPECT_EQ(n1->attempts, 0);
}

// Connect() blocks until released, as a hung ssh connect would.
struct Gate {
  std::mutex mu;
  std::condition_variable cv;
  bool open = false;
  bool returned = false;
};

class HangingAdapter : public ScriptedAdapter {
 public:
  HangingAdapter(boost::asio::io_context& io, std::shared_ptr<Gate> gate)
      : ScriptedAdapter(io, SomeFacts(), ""), gate_(std::move(gate)) {}
  Status Connect() override {
    std::unique_lock<std::mutex> lock(gate_->mu);
    gate_->cv.wait_for(lock, std::chrono::seconds(30),
                       [&] { return gate_->open; });
    gate_->returned = true;
    gate_->cv.notify_all();
    return Status::Unavailable("released");
  }

 private:
  std::shared_ptr<Gate> gate_;
};

TEST(GsdeployProbeSingleTest, HungConnectIsAbandonedAtTheDeadline) {
  auto gate = std::make_shared<Gate>();
  AdapterMaker hang = [gate](const HostConfig&, boost::asio::io_context& io,
                             Clock&) -> StatusOr<std::unique_ptr<Adapter>> {
    return std::unique_ptr<Adapter>(std::make_unique<HangingAdapter>(io, gate));
  };
  HostConfig stuck = OneHost("stuck");
  ProbeOptions options;
  options.connect_timeout = 0.1;
  options.probe_timeout = 0.1;
  options.grace = 0.1;
  const auto start = std::chrono::steady_clock::now();
  std::vector<HostProbeResult> results = ProbeHosts({&stuck}, hang, options);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].state, ProbeState::kNotAnswered);
  EXPECT_NE(results[0].error.find("did not return"), std::string::npos);
  std::unique_lock<std::mutex> lock(gate->mu);
  gate->open = true;
  gate->cv.notify_all();
  // The abandoned thread finishes on its own once released.
  EXPECT_TRUE(gate->cv.wait_for(lock, std::chrono::seconds(10),
                                [&] { return gate->returned; }));
  lock.unlock();
  // Its task (holding `hang`, which holds the gate) goes when it ends.
  const auto limit =
      std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (gate.use_count() > 2 && std::chrono::steady_clock::now() < limit) {
    std::this_thread::yield();
  }
  EXPECT_EQ(gate.use_count(), 2);  // this test's `gate` and `hang`
}

TEST(LocalAdapterProbeTest, UnusableWorkDirFailsLikeConnect) {
  TempDir dir;
  const std::string file = dir / "not-a-dir";
  std::FILE* f = std::fopen(file.c_str(), "w");
  ASSERT_NE(f, nullptr);
  std::fclose(f);
  boost::asio::io_context io;
  AsioClock clock(io);
  LocalAdapterOptions options;
  options.work_dir = file;
  LocalAdapter adapter(io, clock, options);
  std::optional<StatusOr<HostProbe>> probe;
  adapter.Probe([&](StatusOr<HostProbe> p) { probe = std::move(p); });
  EXPECT_FALSE(probe.has_value());  // answers later, on the io_context
  io.run_for(std::chrono::seconds(10));
  ASSERT_TRUE(probe.has_value());
  EXPECT_FALSE(probe->ok());
  EXPECT_NE(probe->status().message().find("not-a-dir"), std::string::npos);
}

}  // namespace
}  // namespace gs
