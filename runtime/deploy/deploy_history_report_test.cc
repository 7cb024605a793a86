#include "runtime/deploy/deploy_history_report.h"

#include <gtest/gtest.h>

#include "runtime/deploy/deploy_format.h"
#include "runtime/history/history_test_util.h"

namespace gs {
namespace {

using testing::TempDir;

class DeployHistoryReportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto h = History::Open(dir_.File("history.db"));
    ASSERT_TRUE(h.ok()) << h.status().ToString();
    history_ = std::move(h).value();
    auto run = history_->BeginRun("app", "/", 2, 100);
    ASSERT_TRUE(run.ok());
    // n1: probed at 100 (answered) and 200 (not), a failure at 250, jobs.
    ASSERT_TRUE(
        history_->RecordHostCheck({"n1", 100, true, 0.002, CheckSource::kProbe})
            .ok());
    HostProbeRecord probe;
    probe.host = "n1";
    probe.time = 100;
    probe.rtt = 0.002;
    probe.cores = 8;
    probe.memory_total = uint64_t{16} << 30;
    probe.memory_available = uint64_t{8} << 30;
    probe.load1 = 0.5;
    ASSERT_TRUE(history_->RecordHostProbe(probe).ok());
    ASSERT_TRUE(history_
                    ->RecordHostCheck(
                        {"n1", 200, false, std::nullopt, CheckSource::kProbe})
                    .ok());
    HostProbeRecord failed;
    failed.host = "n1";
    failed.time = 200;
    failed.error = "connection refused";
    ASSERT_TRUE(history_->RecordHostProbe(failed).ok());
    ASSERT_TRUE(history_
                    ->RecordHostFailure({"n1", 250, "connection_lost",
                                         "ssh connection lost", *run, 7})
                    .ok());
    JobRecord ok;
    ok.run = *run;
    ok.job = 1;
    ok.operation = "multiply";
    ok.host = "n1";
    ok.submitted = 290;
    ok.started = 291;
    ok.ended = 300;
    ASSERT_TRUE(history_->RecordJob(ok).ok());
    JobRecord app = ok;
    app.job = 2;
    app.host = "n2";
    app.ended = 310;
    app.outcome = OutcomeClass::kApp;
    app.exit_code = 1;
    app.error = "exit code 1";
    ASSERT_TRUE(history_->RecordJob(app).ok());
  }

  HistoryReport Report(HistoryRequest request) {
    auto listings = LoadHistoryListings(*history_, request);
    EXPECT_TRUE(listings.ok()) << listings.status().ToString();
    return BuildHistoryReport(listings.ok() ? *listings : HistoryListings{},
                              request);
  }

  TempDir dir_;
  std::unique_ptr<History> history_;
};

TEST_F(DeployHistoryReportTest, SummaryAndTimelineOfEveryHost) {
  HistoryReport report = Report({});
  ASSERT_EQ(report.hosts.size(), 2u);
  const HostHistorySummary& n1 = report.hosts[0];
  EXPECT_EQ(n1.host, "n1");
  EXPECT_EQ(n1.checks, 2);
  EXPECT_EQ(n1.not_answered, 1);
  EXPECT_EQ(n1.failures, 1);
  EXPECT_EQ(n1.jobs_ok, 1);
  EXPECT_DOUBLE_EQ(n1.last, 300);
  EXPECT_EQ(report.hosts[1].jobs_app, 1);
  ASSERT_EQ(report.events.size(), 5u);
  EXPECT_EQ(report.events[0].what,
            "probe: answered, rtt 2.00 ms; 8 cores, 8.00 GiB of 16.0 GiB "
            "free, load 0.50");
  EXPECT_EQ(report.events[1].what, "probe: NOT answered; connection refused");
  EXPECT_EQ(report.events[2].kind, HistoryEvent::Kind::kFailure);
  EXPECT_NE(report.events[2].what.find("connection_lost"), std::string::npos);
  EXPECT_EQ(report.events[4].what,
            "job 2 (run 1, task 0) multiply: app in 19.0 s (exit code 1)");
}

// GS_Off's retries of a lost host, one row each 0.25 s: the summary counts
// them as one check, as the ranking does; the timeline lists every row.
TEST_F(DeployHistoryReportTest, ABurstOfRetriesIsOneCheckInTheSummary) {
  for (int i = 0; i < 17; ++i) {
    ASSERT_TRUE(history_
                    ->RecordHostCheck({"n2", 400 + 0.25 * i, false,
                                       std::nullopt, CheckSource::kRuntime})
                    .ok());
  }
  HistoryReport report = Report({});
  ASSERT_EQ(report.hosts.size(), 2u);
  EXPECT_EQ(report.hosts[1].host, "n2");
  EXPECT_EQ(report.hosts[1].checks, 1);
  EXPECT_EQ(report.hosts[1].not_answered, 1);
  EXPECT_EQ(report.events.size(), 5u + 17u);
}

TEST_F(DeployHistoryReportTest, FiltersByHostAndTime) {
  HistoryRequest request;
  request.host = "n1";
  request.since = 200;
  HistoryReport report = Report(request);
  ASSERT_EQ(report.hosts.size(), 1u);
  EXPECT_EQ(report.hosts[0].checks, 1);
  ASSERT_EQ(report.events.size(), 3u);
  for (const HistoryEvent& e : report.events) {
    EXPECT_EQ(e.host, "n1");
    EXPECT_GE(e.time, 200);
  }
}

TEST_F(DeployHistoryReportTest, LimitKeepsTheNewestEvents) {
  HistoryRequest request;
  request.limit = 2;
  HistoryReport report = Report(request);
  EXPECT_EQ(report.omitted, 3u);
  ASSERT_EQ(report.events.size(), 2u);
  EXPECT_DOUBLE_EQ(report.events[0].time, 300);
  EXPECT_EQ(report.hosts[0].checks, 2);  // summaries count everything
  const std::string text = FormatHistoryReport(report);
  EXPECT_NE(text.find("3 older events not shown"), std::string::npos) << text;
}

TEST_F(DeployHistoryReportTest, LatestProbesSkipProbesThatMeasuredNothing) {
  auto latest = history_->LoadLatestProbes();
  ASSERT_TRUE(latest.ok()) << latest.status().ToString();
  ASSERT_EQ(latest->size(), 1u);
  EXPECT_DOUBLE_EQ((*latest)[0].time, 100);
  EXPECT_EQ((*latest)[0].cores, 8u);
}

TEST(DeployHistoryFormatTest, EmptyHistory) {
  EXPECT_EQ(FormatHistoryReport({}), "No recorded events.\n");
}

}  // namespace
}  // namespace gs
