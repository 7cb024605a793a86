#include "runtime/history/history_records.h"

#include <gtest/gtest.h>

namespace gs {
namespace {

JobSpec Spec() {
  JobSpec spec;
  spec.id = 42;
  spec.task = 7;
  spec.operation = "multiply";
  return spec;
}

JobReport Report(JobOutcome outcome) {
  JobReport report;
  report.id = 42;
  report.outcome = std::move(outcome);
  report.submitted = 10;
  report.started = 11;
  report.ended = 15;
  return report;
}

TEST(JobRecordFromReportTest, SuccessKeepsUsageAndBytes) {
  Exited exited;
  exited.usage = {1.5, 0.25, 2048};
  exited.bytes_in = 100;
  exited.bytes_out = 200;
  exited.log_dir = "/logs/42";
  JobRecord r = JobRecordFromReport(3, Spec(), "node1", Report(exited), true);
  EXPECT_EQ(r.run, 3);
  EXPECT_EQ(r.task, 7u);
  EXPECT_EQ(r.job, 42u);
  EXPECT_EQ(r.operation, "multiply");
  EXPECT_EQ(r.host, "node1");
  EXPECT_EQ(r.outcome, OutcomeClass::kOk);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_DOUBLE_EQ(r.usage.user_cpu, 1.5);
  EXPECT_EQ(r.usage.max_rss_kb, 2048);
  EXPECT_EQ(r.bytes_in, 100u);
  EXPECT_EQ(r.log_dir, "/logs/42");
  EXPECT_TRUE(r.replica);
  EXPECT_DOUBLE_EQ(r.started, 11);
  EXPECT_DOUBLE_EQ(r.ended, 15);
}

TEST(JobRecordFromReportTest, NonZeroExitIsAnApplicationFailure) {
  Exited exited;
  exited.code = 3;
  JobRecord r = JobRecordFromReport(1, Spec(), "h", Report(exited), false);
  EXPECT_EQ(r.outcome, OutcomeClass::kApp);
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.error, "exit code 3");
}

TEST(JobRecordFromReportTest, MissingOutputWithExitZeroIsApplicationFailure) {
  Exited exited;
  exited.error = "declared output 'c' was not written";
  JobRecord r = JobRecordFromReport(1, Spec(), "h", Report(exited), false);
  EXPECT_EQ(r.outcome, OutcomeClass::kApp);
  EXPECT_EQ(r.error, "declared output 'c' was not written");
}

TEST(JobRecordFromReportTest, HostFailureIsInfrastructureWithoutExitCode) {
  JobRecord r = JobRecordFromReport(
      1, Spec(), "h", Report(HostFailed{"ssh: connection lost"}), false);
  EXPECT_EQ(r.outcome, OutcomeClass::kInfra);
  EXPECT_FALSE(r.exit_code.has_value());
  EXPECT_EQ(r.error, "ssh: connection lost");
}

TEST(JobRecordFromReportTest, TimeoutAndCancel) {
  JobRecord t = JobRecordFromReport(
      1, Spec(), "h", Report(TimedOut{30, "/w/failed/s/j"}), false);
  EXPECT_EQ(t.outcome, OutcomeClass::kTimeout);
  EXPECT_EQ(t.error, "killed after the time limit of 30 s");
  EXPECT_EQ(t.log_dir, "/w/failed/s/j");
  JobRecord c = JobRecordFromReport(1, Spec(), "h", Report(Cancelled{}), true);
  EXPECT_EQ(c.outcome, OutcomeClass::kCancelled);
  EXPECT_FALSE(c.exit_code.has_value());
}

TEST(OutcomeClassTest, NamesRoundTrip) {
  for (OutcomeClass c :
       {OutcomeClass::kOk, OutcomeClass::kApp, OutcomeClass::kInfra,
        OutcomeClass::kTimeout, OutcomeClass::kCancelled}) {
    EXPECT_EQ(ParseOutcomeClass(OutcomeClassName(c)), c);
  }
  EXPECT_FALSE(ParseOutcomeClass("crashed").has_value());
}

}  // namespace
}  // namespace gs
