// Behaviour every adapter must show, whatever the host is: one
// value-parameterised suite, instantiated for each entry of
// AdapterFactories() (tests/support/adapter_factories.cc).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <functional>

#include "runtime/base/asio_clock.h"
#include "tests/support/adapter_factories.h"
#include "tests/support/job_spec_builder.h"
#include "tests/support/report_collector.h"
#include "tests/support/run_until.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_files.h"

namespace gs {
namespace {

using ::testing::HasSubstr;

constexpr int kSlots = 3;

class AdapterConformanceTest : public ::testing::TestWithParam<AdapterFactory> {
 protected:
  AdapterConformanceTest() : clock_(io_) {}

  void SetUp() override {
    const AdapterFactory& factory = GetParam();
    if (std::string why = factory.skip_reason(); !why.empty()) {
      GTEST_SKIP() << why;
    }
    AdapterTestEnv env;
    env.io = &io_;
    env.clock = &clock_;
    env.work_dir = dir_ / "work";
    env.slots = kSlots;
    adapter_ = factory.make(env);
    ASSERT_NE(adapter_, nullptr);
    Status s = adapter_->Connect();
    ASSERT_TRUE(s.ok()) << s.ToString();
    worker_ = factory.worker;
  }

  void TearDown() override {
    if (adapter_) adapter_->Shutdown();
    RunReady(io_);
    EXPECT_EQ(reports_.inside_submit(), 0) << "done ran inside Submit";
    EXPECT_EQ(reports_.Duplicates(), "") << "done ran more than once";
  }

  JobSpec Job(JobId id, std::string op, std::vector<JobParam> params = {},
              Seconds timeout = 0) {
    return TestJob(id, worker_, std::move(op), std::move(params), timeout);
  }

  void Submit(JobSpec spec) { reports_.Submit(*adapter_, std::move(spec)); }

  bool WaitFor(JobId id) {
    return RunUntil(io_, [&] { return reports_.Has(id); });
  }

  JobReport Run(JobSpec spec) {
    const JobId id = spec.id;
    Submit(std::move(spec));
    EXPECT_TRUE(WaitFor(id)) << "job " << id << " did not finish in time";
    return reports_.Has(id) ? reports_.Get(id) : JobReport{};
  }

  // The Exited outcome of a job expected to run to its end.
  Exited RunExited(JobSpec spec) {
    JobReport report = Run(std::move(spec));
    if (const Exited* e = AsExited(report)) return *e;
    ADD_FAILURE() << "outcome was " << OutcomeName(report);
    Exited none;
    none.code = -1;
    return none;
  }

  TempDir dir_;
  boost::asio::io_context io_;
  AsioClock clock_;
  std::unique_ptr<Adapter> adapter_;
  std::string worker_;
  ReportCollector reports_;
};

TEST_P(AdapterConformanceTest, RunsAJob) {
  EXPECT_EQ(adapter_->FreeSlots(), kSlots);
  JobReport report = Run(Job(1, "noop"));
  ASSERT_NE(AsExited(report), nullptr) << OutcomeName(report);
  EXPECT_TRUE(AsExited(report)->succeeded()) << AsExited(report)->error;
  EXPECT_EQ(report.id, 1u);
  EXPECT_LE(report.submitted, report.started);
  EXPECT_LE(report.started, report.ended);
  EXPECT_EQ(adapter_->FreeSlots(), kSlots);
}

TEST_P(AdapterConformanceTest, ResultsComeBack) {
  Exited e = RunExited(Job(2, "add", {Scalar("40"), Scalar("2"), OutScalar()}));
  EXPECT_TRUE(e.succeeded()) << e.error;
  EXPECT_EQ(e.results, "42\n");
}

TEST_P(AdapterConformanceTest, OutputsAppearOnlyOnSuccess) {
  const std::string good = dir_ / "good.txt";
  Exited ok = RunExited(Job(3, "echo", {Scalar("payload"), FileOut(good)}));
  EXPECT_TRUE(ok.succeeded()) << ok.error;
  EXPECT_EQ(ReadText(good), "payload");

  const std::string bad = dir_ / "bad.txt";
  Exited failed = RunExited(
      Job(4, "echofail", {Scalar("half"), FileOut(bad), Scalar("5")}));
  EXPECT_EQ(failed.code, 5);
  EXPECT_FALSE(failed.succeeded());
  EXPECT_FALSE(Exists(bad));
}

TEST_P(AdapterConformanceTest, InOutFileKeepsItsInputVersion) {
  WriteText(dir_ / "v0", "12");
  Exited e = RunExited(
      Job(5, "append", {FileInOut(dir_ / "v0", dir_ / "v1"), Scalar("3")}));
  EXPECT_TRUE(e.succeeded()) << e.error;
  EXPECT_EQ(ReadText(dir_ / "v0"), "12");
  EXPECT_EQ(ReadText(dir_ / "v1"), "123");
}

TEST_P(AdapterConformanceTest, FailureCodes) {
  Exited three = RunExited(Job(6, "fail", {Scalar("3")}));
  EXPECT_EQ(three.code, 3);
  EXPECT_FALSE(three.succeeded());
  EXPECT_FALSE(three.error.empty());

  Exited crash = RunExited(Job(7, "crash"));
  EXPECT_EQ(crash.code, 128 + 11);
  EXPECT_FALSE(crash.succeeded());

  Exited missing = RunExited(TestJob(8, dir_ / "no-such-worker", "noop"));
  EXPECT_EQ(missing.code, 127);
  EXPECT_THAT(missing.error, HasSubstr("no-such-worker"));
}

// A function that threw is reported by its message, also through agents.
TEST_P(AdapterConformanceTest, AThrownExceptionIsReportedByItsMessage) {
  Exited e = RunExited(Job(12, "throws", {Scalar("disk on fire")}));
  EXPECT_EQ(e.code, 1);
  EXPECT_EQ(e.error, "throws threw: disk on fire");
}

TEST_P(AdapterConformanceTest, MissingOutputIsAFailure) {
  Exited e = RunExited(Job(9, "noout", {FileOut(dir_ / "o")}));
  EXPECT_EQ(e.code, 0);
  EXPECT_FALSE(e.succeeded());
  EXPECT_THAT(e.error, HasSubstr("was not written"));
  EXPECT_FALSE(Exists(dir_ / "o"));
}

TEST_P(AdapterConformanceTest, TimeoutStopsTheJob) {
  JobReport report = Run(Job(10, "sleep", {Scalar("60000")}, 0.3));
  const TimedOut* t = std::get_if<TimedOut>(&report.outcome);
  ASSERT_NE(t, nullptr) << OutcomeName(report);
  EXPECT_EQ(t->limit, 0.3);
  EXPECT_EQ(adapter_->FreeSlots(), kSlots);
}

TEST_P(AdapterConformanceTest, CancelStopsTheJob) {
  Submit(Job(11, "sleep", {Scalar("60000")}));
  EXPECT_EQ(adapter_->FreeSlots(), kSlots - 1);
  adapter_->Cancel(11);
  ASSERT_TRUE(WaitFor(11));
  EXPECT_TRUE(std::holds_alternative<Cancelled>(reports_.Get(11).outcome))
      << OutcomeName(reports_.Get(11));
  EXPECT_EQ(adapter_->FreeSlots(), kSlots);
}

TEST_P(AdapterConformanceTest, ShutdownReportsWhatRuns) {
  Submit(Job(12, "sleep", {Scalar("60000")}));
  Submit(Job(13, "sleep", {Scalar("60000")}));
  adapter_->Shutdown();
  ASSERT_TRUE(RunUntil(io_, [&] { return reports_.size() == 2; }));
  EXPECT_TRUE(std::holds_alternative<Cancelled>(reports_.Get(12).outcome));
  EXPECT_TRUE(std::holds_alternative<Cancelled>(reports_.Get(13).outcome));
}

TEST_P(AdapterConformanceTest, EveryJobIsReportedExactlyOnce) {
  Submit(Job(20, "noop"));
  Submit(Job(21, "fail", {Scalar("1")}));
  Submit(Job(22, "sleep", {Scalar("60000")}, 0.2));
  ASSERT_TRUE(WaitFor(20));
  Submit(TestJob(23, dir_ / "absent-worker", "noop"));
  Submit(Job(24, "sleep", {Scalar("60000")}));
  adapter_->Cancel(24);
  ASSERT_TRUE(RunUntil(io_, [&] { return reports_.size() == 5; }));
  // Let anything late arrive before counting.
  auto settle = clock_.After(0.2, [] {});
  bool settled = false;
  auto marker = clock_.After(0.25, [&] { settled = true; });
  ASSERT_TRUE(RunUntil(io_, [&] { return settled; }));
  for (JobId id = 20; id <= 24; ++id) EXPECT_EQ(reports_.calls(id), 1) << id;
}

TEST_P(AdapterConformanceTest, ManyConcurrentJobsUpToSlots) {
  constexpr int kJobs = 24;
  int submitted = 0;
  int in_flight = 0;
  int max_in_flight = 0;
  int succeeded = 0;
  std::function<void()> fill = [&] {
    while (submitted < kJobs && adapter_->FreeSlots() > 0) {
      const JobId id = 100 + submitted++;
      ++in_flight;
      max_in_flight = std::max(max_in_flight, in_flight);
      adapter_->Submit(Job(id, "sleep", {Scalar("20")}),
                       [&, cb = reports_.Callback()](JobReport r) {
                         --in_flight;
                         const Exited* e = AsExited(r);
                         if (e && e->succeeded()) ++succeeded;
                         cb(std::move(r));
                         fill();
                       });
    }
  };
  fill();
  EXPECT_EQ(in_flight, kSlots) << "the adapter should take `slots` jobs";
  ASSERT_TRUE(RunUntil(
      io_, [&] { return static_cast<int>(reports_.size()) == kJobs; }));
  EXPECT_EQ(max_in_flight, kSlots);
  EXPECT_EQ(succeeded, kJobs);
  EXPECT_EQ(adapter_->FreeSlots(), kSlots);
}

TEST_P(AdapterConformanceTest, OddFileNames) {
  const std::string in = dir_ / "in file (1) 'single' \"double\".txt";
  const std::string out = dir_ / "out dir/with space/$x; `y` *.txt";
  WriteText(in, "odd");
  Exited e = RunExited(Job(30, "copy", {FileIn(in), FileOut(out)}));
  EXPECT_TRUE(e.succeeded()) << e.error;
  EXPECT_EQ(ReadText(out), "odd");
}

TEST_P(AdapterConformanceTest, StringArgumentsWithShellMetacharacters) {
  const std::string values[] = {"two words",
                                "semi;colon && echo pwned",
                                "$HOME $(id) `id`",
                                "'single' \"double\" \\back",
                                "line\nbreak",
                                "",
                                "*",
                                "-v"};
  JobId id = 40;
  for (const std::string& v : values) {
    const std::string out = dir_ / ("arg" + std::to_string(id));
    Exited e = RunExited(Job(id, "echo", {Scalar(v), FileOut(out)}));
    EXPECT_TRUE(e.succeeded()) << e.error;
    EXPECT_EQ(ReadText(out), v);
    ++id;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Adapters, AdapterConformanceTest, ::testing::ValuesIn(AdapterFactories()),
    [](const ::testing::TestParamInfo<AdapterFactory>& info) {
      return info.param.name;
    });

}  // namespace
}  // namespace gs
