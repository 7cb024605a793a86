#include "adapters/batch/pilot_auth.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdio>
#include <filesystem>

namespace gs {
namespace {

TEST(PilotAuthTest, TokensAreLongAndDiffer) {
  auto a = NewPilotToken();
  auto b = NewPilotToken();
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->size(), 64u);
  EXPECT_NE(*a, *b);
}

TEST(PilotAuthTest, GreetingWithTheTokenNamesThePilot) {
  std::string line = PilotGreeting("abc123", "n1-2");
  ASSERT_EQ(line.back(), '\n');
  line.pop_back();
  auto pilot = CheckPilotGreeting(line, "abc123");
  ASSERT_TRUE(pilot.ok()) << pilot.status().ToString();
  EXPECT_EQ(*pilot, "n1-2");
}

TEST(PilotAuthTest, RefusesWrongMissingOrMalformed) {
  for (std::string_view line :
       {"GSRT-PILOT/1 abc124 n1", "GSRT-PILOT/1 abc12 n1",
        "GSRT-PILOT/1 abc1234 n1", "GSRT-PILOT/1  n1", "GSRT-PILOT/1 abc123",
        "GSRT-PILOT/2 abc123 n1", "hello", "", "GSRT-PILOT/1 abc123 a;b"}) {
    auto pilot = CheckPilotGreeting(line, "abc123");
    EXPECT_FALSE(pilot.ok()) << line;
    if (!pilot.ok()) {
      EXPECT_EQ(pilot.status().code(), Status::Code::kPermissionDenied);
      EXPECT_EQ(pilot.status().message().find("abc123"), std::string::npos);
    }
  }
  EXPECT_FALSE(CheckPilotGreeting("GSRT-PILOT/1  n1", "").ok());
}

TEST(PilotAuthTest, TokenFileMustBePrivate) {
  const std::string path = std::filesystem::temp_directory_path() /
                           ("gsrt-token-test-" + std::to_string(::getpid()));
  ASSERT_TRUE(WriteTokenFile(path, "secret").ok());
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  auto token = ReadTokenFile(path);
  ASSERT_TRUE(token.ok()) << token.status().ToString();
  EXPECT_EQ(*token, "secret");
  ::chmod(path.c_str(), 0644);
  auto refused = ReadTokenFile(path);
  EXPECT_EQ(refused.status().code(), Status::Code::kPermissionDenied);
  EXPECT_NE(refused.status().message().find("chmod 600"), std::string::npos);
  std::remove(path.c_str());
}

}  // namespace
}  // namespace gs
