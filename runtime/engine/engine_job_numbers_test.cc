// Job numbers across runs in one work dir (job_numbers.h): a later run,
// after a clean end, a killed master or a lost `last_job` file, never gives
// out a number an earlier run used, so it never reuses a job's sandbox,
// logs or evidence.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "runtime/engine/engine.h"
#include "runtime/engine/job_numbers.h"
#include "tests/support/fake_adapter.h"
#include "tests/support/fake_operations.h"
#include "tests/support/temp_dir.h"

namespace gs {
namespace {

namespace fs = std::filesystem;
using testing::FakeAdapter;
using testing::kProduce;

class EngineJobNumbersTest : public ::testing::Test {
 protected:
  // The engine goes before the directory it works in.
  void TearDown() override { engine_.reset(); }

  void Start(bool history = true) {
    {
      std::lock_guard<std::mutex> lock(log_.mu);
      log_.submitted.clear();
    }
    EngineOptions options;
    options.cwd = dir_.string();
    options.work_dir = (dir_ / ".gsrt").string();
    options.history_path =
        history ? (dir_ / ".gsrt" / "history.db").string() : "";
    options.program = "/bin/job-numbers-test";
    engine_ = std::make_unique<Engine>(options);
    std::vector<HostSetup> hosts;
    hosts.push_back(
        HostSetup{"node",
                  [this](boost::asio::io_context& io, Clock& clock) {
                    return std::make_unique<FakeAdapter>(io, clock, 4, &log_);
                  },
                  "/no/worker",
                  {}});
    Status s = engine_->Start(std::move(hosts));
    ASSERT_TRUE(s.ok()) << s.ToString();
  }
  // Runs `n` independent tasks writing files named after `prefix`.
  void Produce(const std::string& prefix, int n) {
    for (int i = 0; i < n; ++i) {
      std::string name = prefix + std::to_string(i);
      gs_arg args[2] = {};
      args[0].str = name.c_str();
      args[1].i = i;
      engine_->Submit(&kProduce, args);
    }
  }
  // The job numbers given out since the last Start, sorted.
  std::vector<JobId> Jobs() {
    std::lock_guard<std::mutex> lock(log_.mu);
    std::vector<JobId> ids;
    for (const JobSpec& s : log_.submitted) ids.push_back(s.id);
    std::sort(ids.begin(), ids.end());
    return ids;
  }
  std::string LastJobFile() {
    std::ifstream in(dir_ / ".gsrt" / "last_job");
    std::string text;
    std::getline(in, text);
    return text;
  }

  TempDir tmp_;
  const fs::path dir_{tmp_.path()};
  FakeAdapter::Log log_;
  std::unique_ptr<Engine> engine_;
};

TEST_F(EngineJobNumbersTest, ASecondRunContinuesAfterTheFirst) {
  Start();
  Produce("a", 3);
  ASSERT_EQ(engine_->Stop(), 0);
  std::vector<JobId> first = Jobs();
  ASSERT_EQ(first.size(), 3u);
  // A clean end records the last number used, not the reserved block.
  EXPECT_EQ(LastJobFile(), std::to_string(first.back()));

  Start();
  Produce("b", 3);
  ASSERT_EQ(engine_->Stop(), 0);
  std::vector<JobId> second = Jobs();
  ASSERT_EQ(second.size(), 3u);
  EXPECT_EQ(second.front(), first.back() + 1);
}

TEST_F(EngineJobNumbersTest, WithoutAHistoryTheFileCarriesTheNumbers) {
  Start(/*history=*/false);
  Produce("a", 2);
  ASSERT_EQ(engine_->Stop(), 0);
  std::vector<JobId> first = Jobs();
  Start(/*history=*/false);
  Produce("b", 2);
  ASSERT_EQ(engine_->Stop(), 0);
  std::vector<JobId> second = Jobs();
  ASSERT_EQ(second.size(), 2u);
  EXPECT_GT(second.front(), first.back());
}

TEST_F(EngineJobNumbersTest, AKilledMastersNumbersAreNeverReused) {
  Start();
  Produce("a", 2);
  engine_->Barrier();
  {
    std::lock_guard<std::mutex> lock(log_.mu);
    log_.hold = true;  // a straggler: still running when the master dies
  }
  Produce("held", 1);
  ASSERT_TRUE(log_.WaitRunning(1));
  std::vector<JobId> killed = Jobs();
  engine_.reset();  // no GS_Off: the reserved block stays in last_job
  log_.hold = false;

  Start();  // resumes the killed run
  Produce("b", 3);
  ASSERT_EQ(engine_->Stop(), 0);
  std::vector<JobId> resumed = Jobs();
  ASSERT_FALSE(resumed.empty());
  // After the whole block the dead master reserved, not just after the
  // numbers it was seen to use: its last dispatch may not be recorded.
  EXPECT_GE(resumed.front(), killed.front() + kJobNumberBlock);
}

TEST_F(EngineJobNumbersTest, ALostFileFallsBackOnTheHistory) {
  Start();
  Produce("a", 3);
  ASSERT_EQ(engine_->Stop(), 0);
  std::vector<JobId> first = Jobs();
  fs::remove(dir_ / ".gsrt" / "last_job");
  Start();
  Produce("b", 1);
  ASSERT_EQ(engine_->Stop(), 0);
  ASSERT_EQ(Jobs().size(), 1u);
  EXPECT_EQ(Jobs().front(), first.back() + 1);
}

TEST_F(EngineJobNumbersTest, AnUnreadableFileFallsBackOnTheHistory) {
  Start();
  Produce("a", 2);
  ASSERT_EQ(engine_->Stop(), 0);
  std::vector<JobId> first = Jobs();
  std::ofstream(dir_ / ".gsrt" / "last_job") << "garbage\n";
  Start();
  Produce("b", 1);
  ASSERT_EQ(engine_->Stop(), 0);
  ASSERT_EQ(Jobs().size(), 1u);
  EXPECT_EQ(Jobs().front(), first.back() + 1);
}

}  // namespace
}  // namespace gs
