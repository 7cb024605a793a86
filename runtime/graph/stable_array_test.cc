#include "runtime/graph/stable_array.h"

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <cstdint>
#include <cstdlib>
#include <string>

namespace gs {
namespace {

constexpr size_t kMB = size_t{1} << 20;

TEST(AddressRegionTest, NextCommitDoublesToTwoMegabytesThenWholeHugePages) {
  EXPECT_EQ(AddressRegion::NextCommit(0, 1), 64 << 10);
  EXPECT_EQ(AddressRegion::NextCommit(64 << 10, (64 << 10) + 1), 128 << 10);
  EXPECT_EQ(AddressRegion::NextCommit(64 << 10, 700 << 10), 1 * kMB);
  EXPECT_EQ(AddressRegion::NextCommit(1 * kMB, 3 * kMB), 4 * kMB);
  EXPECT_EQ(AddressRegion::NextCommit(2 * kMB, 2 * kMB + 1), 4 * kMB);
  EXPECT_EQ(AddressRegion::NextCommit(8 * kMB, 8 * kMB + 1), 10 * kMB);
}

TEST(AddressRegionTest, ReservesAlignedAndCommitsAPrefix) {
  AddressRegion region(1, 64 * kMB);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(region.data()) % (2 * kMB), 0u);
  EXPECT_EQ(region.reserved(), 64 * kMB);
  EXPECT_EQ(region.committed(), 0u);
  ASSERT_TRUE(region.Commit(100));
  EXPECT_EQ(region.committed(), 64u << 10);
  region.data()[(64 << 10) - 1] = 1;  // writable to the end of the step
  ASSERT_TRUE(region.Commit(5 * kMB));
  EXPECT_EQ(region.committed(), 6 * kMB);
  region.data()[6 * kMB - 1] = 2;
  EXPECT_TRUE(region.Commit(64 * kMB));
  EXPECT_FALSE(region.Commit(64 * kMB + 1));
  EXPECT_EQ(region.committed(), 64 * kMB);
}

// Run in a child: the limit would hold for the rest of the test binary.
void ReserveUnderAFourGigabyteLimit() {
  rlimit limit{size_t{4} << 30, size_t{4} << 30};
  if (setrlimit(RLIMIT_AS, &limit) != 0) std::exit(3);
  AddressRegion region(kMB, size_t{1} << 40);  // asks for 1 TB
  bool ok = region.reserved() >= 2 * kMB &&
            region.reserved() < (size_t{4} << 30) && region.Commit(2 * kMB);
  std::exit(ok ? 0 : 1);
}

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitized = true;  // their shadow memory needs terabytes
#else
constexpr bool kSanitized = false;
#endif

TEST(AddressRegionTest, AnAddressSpaceLimitGetsASmallerReservation) {
  if (kSanitized) GTEST_SKIP() << "a sanitizer cannot run under RLIMIT_AS";
  EXPECT_EXIT(ReserveUnderAFourGigabyteLimit(), ::testing::ExitedWithCode(0),
              "");
}

TEST(StableArrayTest, GrowsInPlaceWellPastHugePages) {
  StableArray<uint64_t> a;
  a.emplace_back(0);
  const uint64_t* first = &a[0];
  for (uint64_t i = 1; i < 3'000'000; ++i) a.push_back(i * 7);  // 24 MB
  EXPECT_EQ(&a[0], first);
  ASSERT_EQ(a.size(), 3'000'000u);
  EXPECT_GE(a.capacity(), a.size());
  for (uint64_t i = 0; i < a.size(); i += 4999) EXPECT_EQ(a[i], i * 7);
  EXPECT_EQ(a.back(), 2'999'999u * 7);
}

struct Counted {
  static inline int alive = 0;
  Counted() : value(-1) { ++alive; }
  explicit Counted(int v) : value(v) { ++alive; }
  Counted(Counted&& o) noexcept : value(o.value) { ++alive; }
  ~Counted() { --alive; }
  int value;
};

TEST(StableArrayTest, ResizeValueInitialisesAndDestroys) {
  Counted::alive = 0;
  {
    StableArray<Counted> a;
    a.emplace_back(5);
    a.resize(4);
    EXPECT_EQ(Counted::alive, 4);
    EXPECT_EQ(a[0].value, 5);
    EXPECT_EQ(a[3].value, -1);
    a.resize(2);
    EXPECT_EQ(Counted::alive, 2);
    EXPECT_EQ(a.size(), 2u);
    int sum = 0;
    for (const Counted& c : a) sum += c.value;
    EXPECT_EQ(sum, 4);
  }
  EXPECT_EQ(Counted::alive, 0);
}

TEST(StableArrayTest, MovesToALargerReservationWhenItsOwnIsFull) {
  // A reservation of 1 element is still 2 MB: 65,536 strings of 32 bytes.
  StableArray<std::string> a(1);
  const size_t n = 200'000;
  for (size_t i = 0; i < n; ++i) a.emplace_back(std::to_string(i) + "-x");
  ASSERT_EQ(a.size(), n);
  for (size_t i = 0; i < n; i += 997) EXPECT_EQ(a[i], std::to_string(i) + "-x");
  EXPECT_EQ(a.back(), std::to_string(n - 1) + "-x");
}

}  // namespace
}  // namespace gs
