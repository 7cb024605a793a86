#include "runtime/history/history_schema.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "runtime/history/history_test_util.h"
#include "runtime/history/sqlite_db.h"

namespace gs {
namespace {

using gs::testing::TempDir;
using gs::testing::WriteBytes;

class HistorySchemaTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.ok());
    path_ = dir_.File("h.db");
    WriteBytes(path_, "");  // an empty file is an empty database
    auto db = SqliteDb::Open(path_, SqliteDb::Mode::kReadWrite, 1000);
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    db_ = std::move(db).value();
  }

  int64_t Version() { return db_->QueryInt("PRAGMA user_version").value(); }
  int64_t Tables() {
    return db_
        ->QueryInt("SELECT count(*) FROM sqlite_master WHERE type = 'table'")
        .value();
  }

  TempDir dir_;
  std::string path_;
  std::unique_ptr<SqliteDb> db_;
};

TEST_F(HistorySchemaTest, GsrtMigrationsCreateEveryTable) {
  ASSERT_TRUE(MigrateHistory(*db_, HistoryMigrations()).ok());
  EXPECT_EQ(Version(), HistorySchemaVersion());
  for (const char* table : {"runs", "jobs", "hosts", "host_checks",
                            "host_failures", "queue_waits", "task_journal"}) {
    auto n = db_->QueryInt(
        std::string("SELECT count(*) FROM sqlite_master WHERE name = '") +
        table + "'");
    EXPECT_EQ(n.value(), 1) << table;
  }
}

TEST_F(HistorySchemaTest, VersionsAreConsecutiveFromOne) {
  int expected = 1;
  for (const Migration& m : HistoryMigrations()) {
    EXPECT_EQ(m.version, expected++);
  }
}

TEST_F(HistorySchemaTest, AppliesOnlyMissingStepsInOrder) {
  // Step 2 reads what step 1 created, so order matters; re-running step 1
  // would fail ("table a already exists"), so success proves it was skipped.
  const Migration first[] = {
      {1, "CREATE TABLE a (x INTEGER)"},
      {2, "CREATE TABLE b (y INTEGER); INSERT INTO b SELECT count(*) FROM a"},
  };
  ASSERT_TRUE(MigrateHistory(*db_, first).ok());
  EXPECT_EQ(Version(), 2);
  const Migration more[] = {
      first[0], first[1], {3, "CREATE TABLE c (z INTEGER)"}};
  Status s = MigrateHistory(*db_, more);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(Version(), 3);
  EXPECT_EQ(Tables(), 3);
}

TEST_F(HistorySchemaTest, Version6KeepsTasksAndReadsCancelledAsCancelled) {
  // A version 5 history with an interrupted run (Ctrl-C) whose running task
  // was recorded as failed, its job cancelled, and a run with a true
  // failure.
  auto all = HistoryMigrations();
  ASSERT_GE(all.size(), 6u);
  ASSERT_TRUE(MigrateHistory(*db_, all.first(5)).ok());
  ASSERT_TRUE(db_->Exec(R"sql(
    INSERT INTO runs (id, started, program, cwd, status)
      VALUES (1, 1, 'p', '/', 'cancelled'), (2, 2, 'p', '/', 'failed');
    INSERT INTO run_tasks (run_id, task_id, operation, submitted, state)
      VALUES (1, 1, 'op', 1, 'done'), (1, 2, 'op', 1, 'failed'),
             (2, 1, 'op', 2, 'failed');
    INSERT INTO jobs (run_id, task_id, job_id, operation, host, outcome)
      VALUES (1, 1, 1, 'op', 'h', 'ok'), (1, 2, 2, 'op', 'h', 'cancelled'),
             (2, 1, 1, 'op', 'h', 'app');
  )sql")
                  .ok());
  Status s = MigrateHistory(*db_, all);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(Version(), static_cast<int64_t>(all.size()));
  auto state = [&](int run, int task) {
    auto stmt = db_->Prepare(
        "SELECT state FROM run_tasks WHERE run_id = ?1 AND task_id = ?2");
    EXPECT_TRUE(stmt.ok());
    stmt->BindInt(1, run);
    stmt->BindInt(2, task);
    EXPECT_TRUE(stmt->Step().value());
    return stmt->ColumnText(0);
  };
  EXPECT_EQ(state(1, 1), "done");
  EXPECT_EQ(state(1, 2), "cancelled");
  EXPECT_EQ(state(2, 1), "failed");  // a true failure stays one
  // The new state is accepted.
  EXPECT_TRUE(db_->Exec("INSERT INTO run_tasks (run_id, task_id, operation, "
                        "submitted, state) VALUES (1, 3, 'op', 1, "
                        "'cancelled')")
                  .ok());
}

TEST_F(HistorySchemaTest, FailingStepRollsBackEveryStep) {
  const Migration steps[] = {
      {1, "CREATE TABLE a (x INTEGER)"},
      {2, "CREATE TABLE b (y INTEGER)"},
      {3, "THIS IS NOT SQL"},
  };
  Status s = MigrateHistory(*db_, steps);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("version 3"), std::string::npos) << s.message();
  EXPECT_EQ(Version(), 0);
  EXPECT_EQ(Tables(), 0);
}

TEST_F(HistorySchemaTest, NewerVersionIsRefused) {
  ASSERT_TRUE(db_->Exec("PRAGMA user_version = 7").ok());
  const Migration steps[] = {{1, "CREATE TABLE a (x INTEGER)"}};
  Status check = CheckHistorySchema(*db_, steps);
  EXPECT_EQ(check.code(), Status::Code::kFailedPrecondition);
  EXPECT_NE(check.message().find("schema version 7 but this gsrt knows up "
                                 "to 1; upgrade gsrt or use another history "
                                 "file"),
            std::string::npos)
      << check.message();
  EXPECT_FALSE(MigrateHistory(*db_, steps).ok());
  EXPECT_EQ(Version(), 7);
  EXPECT_EQ(Tables(), 0);
}

TEST_F(HistorySchemaTest, ForeignDatabaseIsRefused) {
  ASSERT_TRUE(db_->Exec("CREATE TABLE theirs (x INTEGER)").ok());
  Status check = CheckHistorySchema(*db_, HistoryMigrations());
  EXPECT_EQ(check.code(), Status::Code::kFailedPrecondition);
  EXPECT_NE(check.message().find("not a gsrt history"), std::string::npos);
}

TEST_F(HistorySchemaTest, EmptyDatabasePassesCheck) {
  EXPECT_TRUE(CheckHistorySchema(*db_, HistoryMigrations()).ok());
}

}  // namespace
}  // namespace gs
