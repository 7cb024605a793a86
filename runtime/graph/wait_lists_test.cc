#include "runtime/graph/wait_lists.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

namespace gs {
namespace {

TEST(WaitListsTest, KeepsTheOrderAppended) {
  WaitLists pool;
  WaitList a, b;
  EXPECT_TRUE(a.empty());
  pool.Append(&a, 3);
  pool.Append(&b, 9);
  pool.Append(&a, 1);
  pool.Append(&a, 2);
  EXPECT_EQ(pool.Items(a), (std::vector<TaskId>{3, 1, 2}));
  EXPECT_EQ(pool.Items(b), (std::vector<TaskId>{9}));
}

TEST(WaitListsTest, RemoveDropsEveryEntryAtHeadMiddleAndTail) {
  WaitLists pool;
  WaitList a;
  for (TaskId t : {7, 1, 7, 2, 7}) pool.Append(&a, t);
  pool.Remove(&a, 7);
  EXPECT_EQ(pool.Items(a), (std::vector<TaskId>{1, 2}));
  pool.Append(&a, 4);  // the tail was fixed
  EXPECT_EQ(pool.Items(a), (std::vector<TaskId>{1, 2, 4}));
  pool.Remove(&a, 4);
  pool.Remove(&a, 1);
  pool.Remove(&a, 2);
  EXPECT_TRUE(a.empty());
  pool.Append(&a, 5);
  EXPECT_EQ(pool.Items(a), (std::vector<TaskId>{5}));
}

TEST(WaitListsTest, ClearedEntriesAreReused) {
  WaitLists pool;
  WaitList a, b;
  for (TaskId t = 0; t < 10; ++t) pool.Append(&a, t);
  pool.Remove(&a, 4);
  pool.Clear(&a);
  EXPECT_TRUE(a.empty());
  for (TaskId t = 0; t < 10; ++t) pool.Append(&b, t + 100);
  EXPECT_EQ(pool.pool_size(), 10u);
  EXPECT_EQ(pool.Items(b).front(), 100u);
  EXPECT_EQ(pool.Items(b).back(), 109u);
  EXPECT_TRUE(pool.Items(a).empty());
}

// The lists replace a std::vector<TaskId> per version (push_back,
// std::erase, clear): random operations on both must agree.
TEST(WaitListsTest, AgreesWithAVectorPerListOnRandomOperations) {
  std::mt19937 rng(16);
  WaitLists pool;
  std::vector<WaitList> lists(8);
  std::vector<std::vector<TaskId>> model(8);
  for (int step = 0; step < 20'000; ++step) {
    size_t l = rng() % lists.size();
    TaskId t = rng() % 12;
    switch (rng() % 8) {
      case 0:
        pool.Clear(&lists[l]);
        model[l].clear();
        break;
      case 1:
      case 2:
        pool.Remove(&lists[l], t);
        std::erase(model[l], t);
        break;
      default:
        pool.Append(&lists[l], t);
        model[l].push_back(t);
    }
    ASSERT_EQ(pool.Items(lists[l]), model[l]) << "step " << step;
    ASSERT_EQ(lists[l].empty(), model[l].empty());
  }
  size_t live = 0;
  for (const auto& m : model) live += m.size();
  EXPECT_LE(live, pool.pool_size());
}

}  // namespace
}  // namespace gs
