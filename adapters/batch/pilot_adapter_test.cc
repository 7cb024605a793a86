// The routing of PilotAdapter without pilots: what a job gets when no
// pilot serves, and jobs held for their record (pilot_reattach) before
// they are sent. The fleet has its own tests (pilot_fleet_test.cc); with
// real pilots, tests/slurm_adapter_test.cc and the conformance suite.
#include "adapters/batch/pilot_adapter.h"

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <variant>

#include "tests/support/fake_clock.h"
#include "tests/support/job_spec_builder.h"
#include "tests/support/report_collector.h"

namespace gs {
namespace {

class PilotAdapterTest : public ::testing::Test {
 protected:
  BatchAdapterOptions Options(Seconds reattach = 0) {
    BatchAdapterOptions o;
    o.host.name = "h";
    o.host.adapters = {AdapterKind::kSlurm};
    o.host.workdir = "/nonexistent/work";
    o.host.batch.mode = BatchMode::kPilot;
    o.host.batch.pilot_reattach = reattach;
    return o;
  }

  boost::asio::io_context io_;
  FakeClock clock_;
  ReportCollector reports_;
};

TEST_F(PilotAdapterTest, WithoutAPilotAJobIsAHostFailureReportedLater) {
  PilotAdapter adapter(io_, clock_, Options(), MakeSlurmSystem());
  EXPECT_FALSE(adapter.connected());
  EXPECT_EQ(adapter.FreeSlots(), 0);
  reports_.Submit(adapter, TestJob(1, "/bin/true", "op"));
  EXPECT_FALSE(reports_.Has(1));
  io_.poll();
  ASSERT_TRUE(reports_.Has(1));
  EXPECT_EQ(reports_.inside_submit(), 0);
  const auto* failed = std::get_if<HostFailed>(&reports_.Get(1).outcome);
  ASSERT_NE(failed, nullptr);
  EXPECT_EQ(failed->reason, "host 'h' has no connected pilot");
}

TEST_F(PilotAdapterTest, FilesAndProbesNeedAPilot) {
  PilotAdapter adapter(io_, clock_, Options(), MakeSlurmSystem());
  Status put, get;
  adapter.Put("/a", "b", [&](Status s) { put = s; });
  adapter.Get("b", "/a", [&](Status s) { get = s; });
  EXPECT_EQ(put.message(), "host 'h': no pilot");
  EXPECT_EQ(get.code(), Status::Code::kUnavailable);
  bool probed = false;
  adapter.Probe([&](StatusOr<HostProbe> p) { probed = !p.ok(); });
  EXPECT_TRUE(probed);
}

// Reattaching, a job waits for the round's record before it is sent: until
// then a cancel reports it Cancelled, never run.
TEST_F(PilotAdapterTest, AJobNotSentYetIsCancelledInPlace) {
  PilotAdapter adapter(io_, clock_, Options(/*reattach=*/30),
                       MakeSlurmSystem());
  reports_.Submit(adapter, TestJob(1, "/bin/true", "op"));
  reports_.Submit(adapter, TestJob(2, "/bin/true", "op"));
  adapter.Cancel(1);
  io_.poll();
  ASSERT_TRUE(reports_.Has(1));
  EXPECT_TRUE(std::holds_alternative<Cancelled>(reports_.Get(1).outcome));
  // The other went out in the round: no pilot, so a host failure.
  ASSERT_TRUE(reports_.Has(2));
  EXPECT_TRUE(std::holds_alternative<HostFailed>(reports_.Get(2).outcome));
}

TEST_F(PilotAdapterTest, ShutdownCancelsTheJobsNotSentYet) {
  PilotAdapter adapter(io_, clock_, Options(/*reattach=*/30),
                       MakeSlurmSystem());
  reports_.Submit(adapter, TestJob(1, "/bin/true", "op"));
  adapter.Shutdown();
  io_.poll();
  ASSERT_TRUE(reports_.Has(1));
  EXPECT_TRUE(std::holds_alternative<Cancelled>(reports_.Get(1).outcome));
  EXPECT_EQ(reports_.calls(1), 1);
  EXPECT_EQ(adapter.Connect().code(), Status::Code::kFailedPrecondition);
}

}  // namespace
}  // namespace gs
