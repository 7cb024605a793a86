#include "adapters/batch/node/pilot_auth.h"

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

// The token file is also where a pilot finds its master now: a master
// started after a crash rewrites it with its own token and address.
TEST(PilotAuthTest, TokenFileCarriesTheMastersAddress) {
  const std::string path =
      std::filesystem::temp_directory_path() /
      ("gsrt-rendezvous-test-" + std::to_string(::getpid()));
  ASSERT_TRUE(WriteTokenFile(path, "first").ok());
  auto plain = ReadPilotRendezvous(path);
  ASSERT_TRUE(plain.ok()) << plain.status().ToString();
  EXPECT_EQ(plain->token, "first");
  EXPECT_EQ(plain->connect, "");
  ASSERT_TRUE(WritePilotRendezvous(path, {"second", "127.0.0.1:4242"}).ok());
  auto moved = ReadPilotRendezvous(path);
  ASSERT_TRUE(moved.ok()) << moved.status().ToString();
  EXPECT_EQ(moved->token, "second");
  EXPECT_EQ(moved->connect, "127.0.0.1:4242");
  EXPECT_EQ(*ReadTokenFile(path), "second");
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  std::remove(path.c_str());
}

TEST(PilotAuthTest, APilotMayGreetWithItsBatchJobId) {
  std::string line = PilotGreeting("abc123", "c-p0@4711");
  line.pop_back();
  auto name = CheckPilotGreeting(line, "abc123");
  ASSERT_TRUE(name.ok()) << name.status().ToString();
  const PilotName split = SplitPilotName(*name);
  EXPECT_EQ(split.pilot, "c-p0");
  EXPECT_EQ(split.batch_id, "4711");
  EXPECT_EQ(SplitPilotName("c-p1").batch_id, "");
  EXPECT_EQ(SplitPilotName("c-p1").pilot, "c-p1");
}

}  // namespace
}  // namespace gs
