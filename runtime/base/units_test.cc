#include "runtime/base/units.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <ctime>
#include <string>

namespace gs {
namespace {

TEST(UnitsTest, Walltime) {
  EXPECT_EQ(ParseWalltime("90"), 90 * 60);
  EXPECT_EQ(ParseWalltime("5:30"), 5 * 60 + 30);
  EXPECT_EQ(ParseWalltime("1:30:00"), 5400);
  EXPECT_EQ(ParseWalltime("2-00:00:00"), 2 * 86400);
  EXPECT_EQ(ParseWalltime("1-2"), 86400 + 2 * 3600);
  EXPECT_EQ(ParseWalltime("1-2:30"), 86400 + 2 * 3600 + 30 * 60);
  for (const char* bad : {"", "0", "1h", "1:2:3:4", "-5", "1-", ":30", "a:b"}) {
    EXPECT_FALSE(ParseWalltime(bad).has_value()) << bad;
  }
  EXPECT_EQ(FormatWalltime(5400), "1:30:00");
  EXPECT_EQ(FormatWalltime(93784), "1-02:03:04");
  EXPECT_EQ(ParseWalltime(FormatWalltime(93784)), 93784);
}

TEST(UnitsTest, Memory) {
  EXPECT_EQ(ParseMemoryMb("4096"), 4096);
  EXPECT_EQ(ParseMemoryMb("512M"), 512);
  EXPECT_EQ(ParseMemoryMb("4g"), 4096);
  EXPECT_EQ(ParseMemoryMb("1T"), 1024 * 1024);
  EXPECT_EQ(ParseMemoryMb("100K"), 1);  // rounded up
  for (const char* bad :
       {"", "0", "4GB", "G", "-1", "1.5G", "99999999999999T"}) {
    EXPECT_FALSE(ParseMemoryMb(bad).has_value()) << bad;
  }
}

TEST(UnitsTest, ByteSizes) {
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

TEST(UnitsTest, RelativeSince) {
  const Seconds now = 1'700'000'000;
  EXPECT_DOUBLE_EQ(*ParseSince("90s", now), now - 90);
  EXPECT_DOUBLE_EQ(*ParseSince("30m", now), now - 1800);
  EXPECT_DOUBLE_EQ(*ParseSince("2h", now), now - 7200);
  EXPECT_DOUBLE_EQ(*ParseSince("3d", now), now - 3 * 86400);
  EXPECT_DOUBLE_EQ(*ParseSince("1w", now), now - 7 * 86400);
  EXPECT_DOUBLE_EQ(*ParseSince("1.5h", now), now - 5400);
}

TEST(UnitsTest, AbsoluteSinceInUtcAndLocalTime) {
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

TEST(UnitsTest, MalformedSinceNamesTheForms) {
  for (const char* bad :
       {"", "yesterday", "2h ago", "2024-13-01", "2024-05-01T25:00", "2024-5-1",
        "2024-05-01T12", "3x"}) {
    StatusOr<Seconds> since = ParseSince(bad, 1e9);
    ASSERT_FALSE(since.ok()) << bad;
    EXPECT_EQ(since.status().code(), Status::Code::kInvalidArgument);
    EXPECT_NE(since.status().message().find("2h"), std::string::npos);
  }
}

TEST(UnitsTest, Formats) {
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

TEST(UnitsTest, BothSizeSyntaxesAgreeWhereBothAccept) {
  for (const char* text : {"512M", "4g", "1T", "100K", "3"}) {
    const std::optional<int64_t> mb = ParseMemoryMb(text);
    std::optional<uint64_t> bytes = ParseByteSize(text);
    ASSERT_TRUE(mb && bytes) << text;
    if (std::string(text) == "3") bytes = *bytes << 20;  // plain: MiB
    EXPECT_EQ(*mb, static_cast<int64_t>((*bytes + (1 << 20) - 1) >> 20))
        << text;
  }
}

TEST(UnitsTest, Durations) {
  EXPECT_EQ(ParseDuration("90s"), 90);
  EXPECT_EQ(ParseDuration("1.5H"), 5400);
  EXPECT_EQ(ParseDuration("2w"), 14 * 86400);
  for (const char* bad : {"", "5", "h", "1x", "1 h", "1hh", "-1h"}) {
    EXPECT_FALSE(ParseDuration(bad).has_value()) << bad;
  }
}

TEST(FormatNumberTest, UsesTheGivenFormat) {
  EXPECT_EQ(FormatNumber(0.456, "%.2f"), "0.46");
  EXPECT_EQ(FormatNumber(0.5, "%g"), "0.5");
  EXPECT_EQ(FormatNumber(1e300, "%.2f").size(), 47u);  // cut, not overrun
}

}  // namespace
}  // namespace gs
