// History::Open: file creation, permissions, refusal of files it must not
// touch, reopening.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <memory>
#include <string>

#include "runtime/history/history.h"
#include "runtime/history/history_schema.h"
#include "runtime/history/history_test_util.h"
#include "runtime/history/sqlite_db.h"
#include "tests/support/unprivileged.h"

namespace gs {
namespace {

using gs::testing::ModeOf;
using gs::testing::ReadBytes;
using gs::testing::TempDir;
using gs::testing::WriteBytes;

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// A database made by plain SQLite (rollback journal, so reading it creates
// no side files), as a newer gsrt or another program could leave it.
void MakeRawDatabase(const std::string& path, const std::string& sql) {
  WriteBytes(path, "");
  auto db = SqliteDb::Open(path, SqliteDb::Mode::kReadWrite, 1000);
  ASSERT_TRUE(db.ok());
  ASSERT_TRUE((*db)->Exec(sql).ok());
}

TEST(HistoryOpenTest, CreatesDirsAndFileWithPrivateModes) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  // umask 0 shows that the modes do not depend on the caller's umask.
  mode_t old_umask = umask(0);
  std::string path = dir.File("a/b/history.db");
  auto history = History::Open(path);
  umask(old_umask);
  ASSERT_TRUE(history.ok()) << history.status().ToString();
  EXPECT_EQ(ModeOf(dir.File("a")), 0700);
  EXPECT_EQ(ModeOf(dir.File("a/b")), 0700);
  EXPECT_EQ(ModeOf(path), 0600);
  // SQLite gives the WAL the database file's mode.
  ASSERT_TRUE((*history)->RecordHost({"h", "local", ""}).ok());
  EXPECT_EQ(ModeOf(path + "-wal"), 0600);
}

TEST(HistoryOpenTest, SchemaIsCurrentAndWalIsOn) {
  TempDir dir;
  std::string path = dir.File("history.db");
  ASSERT_TRUE(History::Open(path).ok());
  auto db = SqliteDb::Open(path, SqliteDb::Mode::kReadOnly, 1000);
  ASSERT_TRUE(db.ok());
  EXPECT_EQ((*db)->QueryInt("PRAGMA user_version").value(),
            HistorySchemaVersion());
  EXPECT_EQ((*db)->QueryText("PRAGMA journal_mode").value(), "wal");
}

TEST(HistoryOpenTest, ReopenIsIdempotentAndKeepsData) {
  TempDir dir;
  std::string path = dir.File("history.db");
  RunId run = 0;
  {
    auto history = History::Open(path);
    ASSERT_TRUE(history.ok());
    auto begun = (*history)->BeginRun("prog", "/cwd", 2, 100.0);
    ASSERT_TRUE(begun.ok());
    run = *begun;
  }
  std::string schema_before;
  for (int i = 0; i < 3; ++i) {
    auto history = History::Open(path);
    ASSERT_TRUE(history.ok()) << history.status().ToString();
    auto db = SqliteDb::Open(path, SqliteDb::Mode::kReadOnly, 1000);
    std::string schema =
        (*db)
            ->QueryText("SELECT group_concat(sql, ';') FROM sqlite_master")
            .value();
    if (i == 0) schema_before = schema;
    EXPECT_EQ(schema, schema_before);
    EXPECT_EQ((*db)->QueryInt("SELECT count(*) FROM runs").value(), 1);
    EXPECT_EQ((*db)->QueryInt("PRAGMA user_version").value(),
              HistorySchemaVersion());
  }
  auto history = History::Open(path);
  EXPECT_TRUE((*history)->EndRun(run, RunStatus::kOk, 200.0).ok());
}

TEST(HistoryOpenTest, TightensGroupAndWorldWritableFile) {
  TempDir dir;
  std::string path = dir.File("history.db");
  ASSERT_TRUE(History::Open(path).ok());
  ASSERT_EQ(chmod(path.c_str(), 0666), 0);
  ASSERT_TRUE(History::Open(path).ok());
  EXPECT_EQ(ModeOf(path), 0644);
}

TEST(HistoryOpenTest, NewerSchemaIsRefusedAndFileLeftByteIdentical) {
  TempDir dir;
  std::string path = dir.File("history.db");
  MakeRawDatabase(path,
                  "CREATE TABLE runs (id INTEGER PRIMARY KEY, future TEXT);"
                  "INSERT INTO runs (future) VALUES ('from gsrt 9');"
                  "PRAGMA user_version = 99;");
  ASSERT_EQ(chmod(path.c_str(), 0666), 0);
  const std::string before = ReadBytes(path);
  ASSERT_FALSE(before.empty());

  auto history = History::Open(path);
  ASSERT_FALSE(history.ok());
  EXPECT_EQ(history.status().code(), Status::Code::kFailedPrecondition);
  const std::string& msg = history.status().message();
  EXPECT_TRUE(Contains(msg, path)) << msg;
  EXPECT_TRUE(Contains(msg, "has schema version 99 but this gsrt knows up to " +
                                std::to_string(HistorySchemaVersion()) +
                                "; upgrade gsrt or use another history file"))
      << msg;
  EXPECT_EQ(ReadBytes(path), before);
  EXPECT_EQ(ModeOf(path), 0666);  // not even the mode was touched
  EXPECT_FALSE(std::filesystem::exists(path + "-wal"));
}

TEST(HistoryOpenTest, CorruptFileIsRefusedNamingThePath) {
  TempDir dir;
  std::string path = dir.File("history.db");
  const std::string garbage(8192, 'x');
  WriteBytes(path, garbage);
  auto history = History::Open(path);
  ASSERT_FALSE(history.ok());
  EXPECT_TRUE(Contains(history.status().message(), path))
      << history.status().message();
  EXPECT_TRUE(Contains(history.status().message(), "not an SQLite database"))
      << history.status().message();
  EXPECT_EQ(ReadBytes(path), garbage);
}

TEST(HistoryOpenTest, ForeignSqliteFileIsRefusedUntouched) {
  TempDir dir;
  std::string path = dir.File("other.db");
  MakeRawDatabase(path, "CREATE TABLE notes (text TEXT)");
  const std::string before = ReadBytes(path);
  auto history = History::Open(path);
  ASSERT_FALSE(history.ok());
  EXPECT_TRUE(Contains(history.status().message(), "not a gsrt history"));
  EXPECT_EQ(ReadBytes(path), before);
}

TEST(HistoryOpenTest, DirectoryAtThePathIsRefused) {
  TempDir dir;
  std::string path = dir.File("history.db");
  ASSERT_TRUE(std::filesystem::create_directory(path));
  auto history = History::Open(path);
  ASSERT_FALSE(history.ok());
  EXPECT_TRUE(Contains(history.status().message(), "not a regular file"));
}

TEST(HistoryOpenTest, ParentThatIsAFileIsRefused) {
  TempDir dir;
  WriteBytes(dir.File("plain"), "x");
  auto history = History::Open(dir.File("plain/history.db"));
  ASSERT_FALSE(history.ok());
  EXPECT_TRUE(Contains(history.status().message(), dir.File("plain")))
      << history.status().message();
}

// SQLite's "database or disk is full": max_page_count stands in for a full
// disk (tests/bad_environment_test.sh fills a real one).
TEST(HistoryOpenTest, FullDatabaseSaysSoAndWhatToDo) {
  TempDir dir;
  std::string path = dir.File("full.db");
  WriteBytes(path, "");
  auto db = SqliteDb::Open(path, SqliteDb::Mode::kReadWrite, 1000);
  ASSERT_TRUE(db.ok());
  ASSERT_TRUE((*db)->Exec("CREATE TABLE t (x BLOB)").ok());
  ASSERT_TRUE((*db)->Exec("PRAGMA max_page_count = 3").ok());
  Status s = (*db)->Exec("INSERT INTO t VALUES (zeroblob(100000))");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), Status::Code::kIoError);
  EXPECT_TRUE(Contains(s.message(), path)) << s.message();
  EXPECT_TRUE(Contains(s.message(), "disk holding the database is full"))
      << s.message();
}

// As root, the open runs as nobody (tests/support/unprivileged.h): root
// reads any file.
TEST(HistoryOpenTest, UnreadableFileIsRefusedNamingThePath) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  ASSERT_EQ(GiveToUnprivileged(dir.path()), "");
  std::string path = dir.File("history.db");
  UnprivilegedRun run = RunAsUnprivileged([&path] {
    // Made by the same user: it could open the file but for its mode.
    if (auto made = History::Open(path); !made.ok()) {
      return "not created: " + made.status().ToString();
    }
    if (chmod(path.c_str(), 0) != 0) return std::string("chmod failed");
    auto history = History::Open(path);
    if (history.ok()) return std::string("opened");
    return "refused: " + history.status().message();
  });
  ASSERT_TRUE(run.ran) << run.failure;
  EXPECT_TRUE(Contains(run.result, "refused: ")) << run.result;
  EXPECT_TRUE(Contains(run.result, path)) << run.result;
  EXPECT_EQ(ModeOf(path), 0);
}

}  // namespace
}  // namespace gs
