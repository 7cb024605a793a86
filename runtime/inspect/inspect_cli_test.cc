// `gsrt` over a recorded history: each subcommand's text and JSON output
// compared with the golden files in tests/golden/gsrt/ (regenerate with
// GSRT_UPDATE_GOLDEN=1 and review the diff). The history is written here
// through the History API with fixed times, as a run of the engine records
// it: a three-task chain on two hosts, one task failing twice, one futile.
#include "runtime/inspect/inspect_cli.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "runtime/history/history.h"

namespace gs {
namespace {

namespace fs = std::filesystem;

constexpr Seconds kT0 = 1'790'000'000;  // 2026-09-21 ...

std::string Slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

JobRecord Job(RunId run, TaskId task, JobId id, const char* op,
              const char* host, Seconds start, Seconds end,
              OutcomeClass outcome) {
  JobRecord j;
  j.run = run;
  j.task = task;
  j.job = id;
  j.operation = op;
  j.host = host;
  j.submitted = kT0 + start - 0.25;
  j.started = kT0 + start;
  j.ended = kT0 + end;
  j.outcome = outcome;
  if (outcome == OutcomeClass::kOk) {
    j.exit_code = 0;
  } else {
    j.exit_code = 3;
    j.error = "exit code 3";
    j.log_dir = "/work/.gsrt/logs/job-" + std::to_string(id);
  }
  j.bytes_in = 1000;
  j.bytes_out = 2000;
  return j;
}

class InspectCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("gsrt-inspect-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    history_ = (dir_ / "history.db").string();
    Record();
  }
  void TearDown() override { fs::remove_all(dir_); }

  void Record() {
    auto h = History::Open(history_);
    ASSERT_TRUE(h.ok()) << h.status().ToString();
    History& db = **h;
    // Run 1: a quick successful run of another program.
    auto r1 = db.BeginRun("/apps/bin/hello", "/work", 1, kT0 - 100);
    ASSERT_TRUE(r1.ok());
    ASSERT_TRUE(db.RecordTask(*r1, {0, "greet", {}, kT0 - 100}).ok());
    ASSERT_TRUE(db.RecordJob(Job(*r1, 0, 1, "greet", "local", -99, -98,
                                 OutcomeClass::kOk))
                    .ok());
    ASSERT_TRUE(db.RecordTaskEnd(*r1, {0, "done", kT0 - 98}).ok());
    ASSERT_TRUE(db.EndRun(*r1, RunStatus::kOk, kT0 - 97).ok());

    // Run 2: scale -> blur -> merge; blur fails twice, merge is futile;
    // scale #3 runs on the other host beside it.
    auto r2 = db.BeginRun("/apps/bin/pipeline", "/work", 2, kT0);
    ASSERT_TRUE(r2.ok());
    ASSERT_TRUE(db.RecordTask(*r2, {0, "scale", {}, kT0}).ok());
    ASSERT_TRUE(db.RecordTask(*r2, {1, "scale", {0}, kT0}).ok());
    ASSERT_TRUE(db.RecordTask(*r2, {2, "blur", {1}, kT0}).ok());
    ASSERT_TRUE(db.RecordTask(*r2, {3, "merge", {2}, kT0}).ok());
    ASSERT_TRUE(db.RecordTask(*r2, {4, "scale", {}, kT0}).ok());
    RunEvent transfer{"transfer", kT0 + 0.5, 0.25, "node2"};
    transfer.bytes = 4096;
    transfer.detail = "1-input.dat";
    ASSERT_TRUE(db.RecordRunEvent(*r2, transfer).ok());
    ASSERT_TRUE(
        db.RecordJob(Job(*r2, 0, 1, "scale", "node1", 1, 3, OutcomeClass::kOk))
            .ok());
    ASSERT_TRUE(
        db.RecordJob(Job(*r2, 4, 2, "scale", "node2", 1, 2, OutcomeClass::kOk))
            .ok());
    ASSERT_TRUE(
        db.RecordJob(Job(*r2, 1, 3, "scale", "node1", 3, 6, OutcomeClass::kOk))
            .ok());
    ASSERT_TRUE(
        db.RecordJob(Job(*r2, 2, 4, "blur", "node2", 6, 7, OutcomeClass::kApp))
            .ok());
    RunEvent retry{"retry", kT0 + 7};
    retry.task = 2;
    retry.detail = "attempt 2 after 1 s";
    ASSERT_TRUE(db.RecordRunEvent(*r2, retry).ok());
    ASSERT_TRUE(db.RecordJob(Job(*r2, 2, 5, "blur", "node1", 8, 9.5,
                                 OutcomeClass::kApp))
                    .ok());
    ASSERT_TRUE(db.RecordTaskEnd(*r2, {0, "done", kT0 + 3}).ok());
    ASSERT_TRUE(db.RecordTaskEnd(*r2, {4, "done", kT0 + 2}).ok());
    ASSERT_TRUE(db.RecordTaskEnd(*r2, {1, "done", kT0 + 6}).ok());
    ASSERT_TRUE(db.RecordTaskEnd(*r2, {2, "failed", kT0 + 9.5}).ok());
    ASSERT_TRUE(db.RecordTaskEnd(*r2, {3, "futile", kT0 + 9.5}).ok());
    ASSERT_TRUE(db.EndRun(*r2, RunStatus::kFailed, kT0 + 10).ok());
  }

  // Runs `gsrt ARGS --history H` and returns its stdout; `code` its exit.
  std::string Gsrt(std::vector<std::string> args, int* code = nullptr) {
    args.push_back("--history");
    args.push_back(history_);
    std::ostringstream out, err;
    ConfigEnv env;
    env.cwd = dir_.string();
    int c = RunGsrtCommand(args, env, out, err);
    if (code) *code = c;
    err_ = err.str();
    return out.str();
  }

  // Compares with tests/golden/gsrt/NAME (or rewrites it).
  void ExpectGolden(const std::string& name, const std::string& actual) {
    const fs::path golden =
        fs::path(GSRT_SOURCE_DIR) / "tests/golden/gsrt" / name;
    if (std::getenv("GSRT_UPDATE_GOLDEN")) {
      std::ofstream(golden) << actual;
      return;
    }
    EXPECT_EQ(actual, Slurp(golden)) << "golden file " << golden;
  }

  fs::path dir_;
  std::string history_;
  std::string err_;
};

TEST_F(InspectCliTest, RunsListsEveryRunWithItsCounts) {
  ExpectGolden("runs.txt", Gsrt({"runs"}));
  ExpectGolden("runs.json", Gsrt({"runs", "--json"}));
}

TEST_F(InspectCliTest, ShowDefaultsToTheLatestRun) {
  const std::string latest = Gsrt({"show"});
  EXPECT_EQ(latest, Gsrt({"show", "2"}));
  ExpectGolden("show.txt", latest);
  ExpectGolden("show.json", Gsrt({"show", "--json"}));
}

TEST_F(InspectCliTest, TasksFiltersByState) {
  ExpectGolden("tasks.txt", Gsrt({"tasks"}));
  ExpectGolden("tasks-failed.txt", Gsrt({"tasks", "--failed"}));
  ExpectGolden("tasks-futile.json",
               Gsrt({"tasks", "2", "--state", "futile", "--json"}));
}

// Run 3, as the engine records a master stopped by Ctrl-C: task 0 done,
// tasks 1 and 2 running (their jobs cancelled by the run's end), task 3
// never started.
void RecordInterrupted(const std::string& path) {
  auto h = History::Open(path);
  ASSERT_TRUE(h.ok()) << h.status().ToString();
  History& db = **h;
  auto r = db.BeginRun("/apps/bin/pipeline", "/work", 1, kT0 + 100);
  ASSERT_TRUE(r.ok());
  for (TaskId t : {0, 1, 2, 3}) {
    ASSERT_TRUE(db.RecordTask(*r, {t, "scale", {}, kT0 + 100}).ok());
  }
  ASSERT_TRUE(
      db.RecordJob(Job(*r, 0, 1, "scale", "node1", 101, 102, OutcomeClass::kOk))
          .ok());
  ASSERT_TRUE(db.RecordTaskEnd(*r, {0, "done", kT0 + 102}).ok());
  for (TaskId t : {1, 2}) {
    JobRecord j =
        Job(*r, t, t + 1, "scale", "node1", 102, 103, OutcomeClass::kCancelled);
    j.exit_code.reset();
    j.error.clear();
    j.log_dir.clear();
    ASSERT_TRUE(db.RecordJob(j).ok());
    ASSERT_TRUE(db.RecordTaskEnd(*r, {t, "cancelled", kT0 + 103}).ok());
  }
  ASSERT_TRUE(db.EndRun(*r, RunStatus::kCancelled, kT0 + 103).ok());
}

TEST_F(InspectCliTest, CancelledTasksAreListedAndCountedApartFromFailed) {
  RecordInterrupted(history_);
  int code = -1;
  EXPECT_EQ(Gsrt({"tasks", "3", "--failed"}, &code), "no tasks\n");
  EXPECT_EQ(code, 0) << err_;
  auto cancelled =
      nlohmann::json::parse(Gsrt({"tasks", "3", "--cancelled", "--json"}));
  ASSERT_EQ(cancelled.at("tasks").size(), 2u);
  for (const auto& t : cancelled.at("tasks")) {
    EXPECT_EQ(t.at("state"), "cancelled");
  }
  EXPECT_EQ(Gsrt({"tasks", "3", "--state", "cancelled"}),
            Gsrt({"tasks", "3", "--cancelled"}));
  EXPECT_NE(Gsrt({"tasks", "3"}).find("cancelled"), std::string::npos);
  auto runs = nlohmann::json::parse(Gsrt({"runs", "--json"}));
  const auto& run = runs.at("runs").at(2);
  EXPECT_EQ(run.at("status"), "cancelled");
  EXPECT_EQ(run.at("failed_tasks"), 0);
  EXPECT_EQ(run.at("cancelled_tasks"), 2);
  EXPECT_EQ(run.at("failed_jobs"), 0);
  EXPECT_EQ(run.at("cancelled_jobs"), 2);
  auto show = nlohmann::json::parse(Gsrt({"show", "3", "--json"}));
  EXPECT_EQ(show.at("tasks").at("failed"), 0);
  EXPECT_EQ(show.at("tasks").at("cancelled"), 2);
  EXPECT_TRUE(show.at("failed_tasks").empty());
  EXPECT_NE(Gsrt({"show", "3"}).find("0 failed, 0 futile, 2 cancelled"),
            std::string::npos);
  EXPECT_NE(Gsrt({"dot", "3"}).find("lightsteelblue"), std::string::npos);
}

TEST_F(InspectCliTest, DotDrawsTheTrueDependencies) {
  ExpectGolden("dot.txt", Gsrt({"dot"}));
}

TEST_F(InspectCliTest, TraceRebuildsOneEventPerAttempt) {
  const std::string file = (dir_ / "t.json").string();
  int code = -1;
  std::string said = Gsrt({"trace", "-o", file, "--json"}, &code);
  ASSERT_EQ(code, 0) << err_;
  auto summary = nlohmann::json::parse(said);
  EXPECT_EQ(summary.at("jobs"), 5);
  EXPECT_EQ(summary.at("flows"), 1);  // 1 <- 0; blur never succeeded
  auto trace = nlohmann::json::parse(Slurp(file));
  int jobs = 0;
  for (const auto& e : trace.at("traceEvents")) {
    if (e.at("ph") == "X" && e.at("cat") != "transfer") ++jobs;
  }
  EXPECT_EQ(jobs, 5);
}

TEST_F(InspectCliTest, AMissingHistoryIsNamedAndNotCreated) {
  std::ostringstream out, err;
  ConfigEnv env;
  env.cwd = dir_.string();
  const fs::path missing = dir_ / "nowhere" / "history.db";
  int code =
      RunGsrtCommand({"runs", "--history", missing.string()}, env, out, err);
  EXPECT_EQ(code, kGsrtHistoryError);
  EXPECT_NE(err.str().find("no history at " + missing.string()),
            std::string::npos)
      << err.str();
  EXPECT_FALSE(fs::exists(missing.parent_path()));
}

TEST_F(InspectCliTest, AnUnknownRunIsNamedWithWhatToDo) {
  int code = 0;
  Gsrt({"show", "9"}, &code);
  EXPECT_EQ(code, kGsrtHistoryError);
  EXPECT_NE(err_.find("has no run 9"), std::string::npos) << err_;
  EXPECT_NE(err_.find("gsrt runs"), std::string::npos) << err_;
  Gsrt({"show", "nine"}, &code);
  EXPECT_EQ(code, 2);
}

}  // namespace
}  // namespace gs
