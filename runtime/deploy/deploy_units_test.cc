#include "runtime/deploy/deploy_units.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <ctime>

namespace gs {
namespace {

TEST(DeployUnitsTest, ByteSizes) {
  EXPECT_EQ(ParseByteSize("0"), 0u);
  EXPECT_EQ(ParseByteSize("1048576"), 1048576u);
  EXPECT_EQ(ParseByteSize("512K"), 512u * 1024);
  EXPECT_EQ(ParseByteSize("64m"), 64u << 20);
  EXPECT_EQ(ParseByteSize("2GiB"), uint64_t{2} << 30);
  EXPECT_EQ(ParseByteSize("1.5G"), uint64_t{3} << 29);
  EXPECT_EQ(ParseByteSize("1T"), uint64_t{1} << 40);
  EXPECT_EQ(ParseByteSize("10B"), 10u);
  for (const char* bad : {"", "G", "-1", "1X", "1.2.3", "1 G", "4GG", "1e3"}) {
    EXPECT_FALSE(ParseByteSize(bad).has_value()) << bad;
  }
}

TEST(DeployUnitsTest, RelativeSince) {
  const Seconds now = 1'700'000'000;
  EXPECT_DOUBLE_EQ(*ParseSince("90s", now), now - 90);
  EXPECT_DOUBLE_EQ(*ParseSince("30m", now), now - 1800);
  EXPECT_DOUBLE_EQ(*ParseSince("2h", now), now - 7200);
  EXPECT_DOUBLE_EQ(*ParseSince("3d", now), now - 3 * 86400);
  EXPECT_DOUBLE_EQ(*ParseSince("1w", now), now - 7 * 86400);
  EXPECT_DOUBLE_EQ(*ParseSince("1.5h", now), now - 5400);
}

TEST(DeployUnitsTest, AbsoluteSinceInUtcAndLocalTime) {
  EXPECT_DOUBLE_EQ(*ParseSince("2024-05-01Z", 0), 1714521600);
  EXPECT_DOUBLE_EQ(*ParseSince("2024-05-01T12:30Z", 0), 1714566600);
  EXPECT_DOUBLE_EQ(*ParseSince("2024-05-01 12:30:15Z", 0), 1714566615);
  // Local time follows TZ.
  const char* old = std::getenv("TZ");
  const std::string saved = old ? old : "";
  ::setenv("TZ", "UTC-2", 1);  // POSIX: two hours east of UTC
  ::tzset();
  EXPECT_DOUBLE_EQ(*ParseSince("2024-05-01T12:30", 0), 1714566600 - 7200);
  if (old) {
    ::setenv("TZ", saved.c_str(), 1);
  } else {
    ::unsetenv("TZ");
  }
  ::tzset();
}

TEST(DeployUnitsTest, MalformedSinceNamesTheForms) {
  for (const char* bad :
       {"", "yesterday", "2h ago", "2024-13-01", "2024-05-01T25:00", "2024-5-1",
        "2024-05-01T12", "3x"}) {
    StatusOr<Seconds> since = ParseSince(bad, 1e9);
    ASSERT_FALSE(since.ok()) << bad;
    EXPECT_EQ(since.status().code(), Status::Code::kInvalidArgument);
    EXPECT_NE(since.status().message().find("2h"), std::string::npos);
  }
}

TEST(DeployUnitsTest, Formats) {
  EXPECT_EQ(FormatBytes(512), "512 B");
  EXPECT_EQ(FormatBytes(1536), "1.50 KiB");
  EXPECT_EQ(FormatBytes(3.0 * (1 << 30)), "3.00 GiB");
  EXPECT_EQ(FormatDuration(0), "0 s");
  EXPECT_EQ(FormatDuration(250e-6), "250 us");
  EXPECT_EQ(FormatDuration(0.0123), "12.3 ms");
  EXPECT_EQ(FormatDuration(4.2), "4.20 s");
  EXPECT_EQ(FormatDuration(300), "5.00 min");
  EXPECT_EQ(FormatRate(12.5e6), "12.5 MB/s");
  EXPECT_EQ(FormatIsoUtc(1714566615), "2024-05-01T12:30:15Z");
  EXPECT_EQ(FormatTimestamp(1714566615, /*utc=*/true), "2024-05-01 12:30:15");
}

}  // namespace
}  // namespace gs
