// Results that last across runs in the history: entries round-trip, a
// miss is cheap to tell, and the last uses runs record (one row a run)
// order the results for the store's limit, folded into the results' rows
// after a few dozen runs.
#include <gtest/gtest.h>

#include "runtime/history/history.h"
#include "runtime/history/history_test_util.h"
#include "runtime/history/sqlite_db.h"

namespace gs {
namespace {

class HistoryReuseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.ok());
    auto h = History::Open(dir_.File("history.db"));
    ASSERT_TRUE(h.ok()) << h.status().message();
    history_ = std::move(h).value();
  }
  static ReuseEntry Entry(char digit, Seconds finished) {
    ReuseEntry e;
    e.key = std::string(32, digit);
    e.call = std::string(32, 'c');
    e.operation = "total";
    e.run = 1;
    e.task = static_cast<TaskId>(digit);
    e.finished = finished;
    e.worker = "f:00";
    e.results = "7\n";
    return e;
  }
  // The keys' first digits, least recently used first.
  std::string Order() {
    auto entries = history_->LoadReuse();
    EXPECT_TRUE(entries.ok());
    std::string order;
    for (const ReuseEntry& e : *entries) order += e.key[0];
    return order;
  }
  // Rows of reuse_uses, read through a connection of its own.
  int64_t UseRows() {
    auto db = SqliteDb::Open(dir_.File("history.db"), SqliteDb::Mode::kReadOnly,
                             1000);
    EXPECT_TRUE(db.ok());
    if (!db.ok()) return -1;
    auto rows = (*db)->QueryInt("SELECT count(*) FROM reuse_uses");
    EXPECT_TRUE(rows.ok());
    return rows.ok() ? *rows : -1;
  }

  testing::TempDir dir_;
  std::unique_ptr<History> history_;
};

TEST_F(HistoryReuseTest, EntriesRoundTripAndKeysListThem) {
  ASSERT_TRUE(history_->RecordReuse({Entry('1', 10), Entry('2', 20)}).ok());
  auto found = history_->FindReuse(std::string(32, '2'));
  ASSERT_TRUE(found.ok() && found->has_value());
  EXPECT_EQ((*found)->results, "7\n");
  EXPECT_EQ((*found)->last_used, 20);
  auto none = history_->FindReuse(std::string(32, '3'));
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
  auto keys = history_->LoadReuseKeys();
  ASSERT_TRUE(keys.ok());
  EXPECT_EQ(keys->size(), 2u);
}

TEST_F(HistoryReuseTest, ARunsUsesComeFirstInTheOrderOfTheLimit) {
  ASSERT_TRUE(
      history_->RecordReuse({Entry('1', 10), Entry('2', 20), Entry('3', 30)})
          .ok());
  EXPECT_EQ(Order(), "123");
  ASSERT_TRUE(history_->TouchReuse({std::string(32, '1')}, 40).ok());
  EXPECT_EQ(Order(), "231");
  ASSERT_TRUE(history_->TouchReuse({std::string(32, '2')}, 50).ok());
  EXPECT_EQ(Order(), "312");
  EXPECT_EQ(UseRows(), 2) << "one row a run";
}

TEST_F(HistoryReuseTest, UsesAreFoldedIntoTheResultsAfterAFewDozenRuns) {
  ASSERT_TRUE(history_->RecordReuse({Entry('1', 10), Entry('2', 20)}).ok());
  Seconds when = 100;
  for (int run = 0; run < 40 && UseRows() < 32; ++run)
    ASSERT_TRUE(history_->TouchReuse({std::string(32, '1')}, ++when).ok());
  ASSERT_EQ(UseRows(), 32);
  ASSERT_TRUE(history_->TouchReuse({std::string(32, '2')}, 1000).ok());
  EXPECT_EQ(UseRows(), 0) << "folded";
  auto one = history_->FindReuse(std::string(32, '1'));
  ASSERT_TRUE(one.ok() && one->has_value());
  EXPECT_EQ((*one)->last_used, when) << "the newest use of each, kept";
  EXPECT_EQ(Order(), "12");
}

TEST_F(HistoryReuseTest, ClearingForgetsTheUsesToo) {
  ASSERT_TRUE(history_->RecordReuse({Entry('1', 10)}).ok());
  ASSERT_TRUE(history_->TouchReuse({std::string(32, '1')}, 40).ok());
  ASSERT_TRUE(history_->DeleteAllReuse().ok());
  EXPECT_EQ(UseRows(), 0);
  EXPECT_EQ(Order(), "");
}

}  // namespace
}  // namespace gs
