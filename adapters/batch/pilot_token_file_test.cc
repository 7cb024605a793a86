#include "adapters/batch/pilot_token_file.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "tests/support/temp_dir.h"

namespace gs {
namespace {

using ::testing::ElementsAre;
using ::testing::UnorderedElementsAre;

TEST(PilotTokenFileTest, OnlyThisMachinesFilesOfDeadMastersAreStale) {
  auto alive = [](pid_t pid) { return pid == 200; };
  std::vector<std::string> names = {
      "token.node1.100",        // dead master here: stale
      "token.node1.200",        // live master here
      "token.node2.100",        // another machine: not ours to judge
      "token.node1.x100",       // not a pid
      "token.node1.100.sh",     // not a token file
      "token.node1",            // no pid
      "cluster-p0.sh",          // a pilot's script
      "token.node1.node2.100",  // host "node1.node2": not "node1"
  };
  EXPECT_THAT(StalePilotTokenFiles(names, "node1", alive),
              ElementsAre("token.node1.100"));
  EXPECT_THAT(StalePilotTokenFiles(names, "node1.node2", alive),
              ElementsAre("token.node1.node2.100"));
  EXPECT_EQ(PilotTokenFileName("node1", 100), "token.node1.100");
}

TEST(PilotTokenFileTest, RemovesTheFilesOfDeadMastersOnly) {
  TempDir dir;
  // A pid that no process has: a child that has ended and been reaped.
  pid_t dead = ::fork();
  if (dead == 0) ::_exit(0);
  ASSERT_GT(dead, 0);
  int status = 0;
  ASSERT_EQ(::waitpid(dead, &status, 0), dead);
  const std::string mine = PilotTokenFileName("here", ::getpid());
  const std::string gone = PilotTokenFileName("here", dead);
  const std::string other = PilotTokenFileName("there", dead);
  for (const auto& n : {mine, gone, other}) std::ofstream(dir / n) << "t\n";
  RemoveStalePilotTokenFiles(dir.path(), "here");
  std::vector<std::string> left;
  for (const auto& e : std::filesystem::directory_iterator(dir.path())) {
    left.push_back(e.path().filename().string());
  }
  EXPECT_THAT(left, UnorderedElementsAre(mine, other));
}

// With pilot_reattach, the files of dead masters are not removed but
// rewritten for this master, whose pilots they then guide here.
TEST(PilotTokenFileTest, TakesOverTheFilesOfDeadMastersOnly) {
  TempDir dir;
  pid_t dead = ::fork();
  if (dead == 0) ::_exit(0);
  ASSERT_GT(dead, 0);
  int status = 0;
  ASSERT_EQ(::waitpid(dead, &status, 0), dead);
  const std::string mine = PilotTokenFileName("here", ::getpid());
  const std::string gone = PilotTokenFileName("here", dead);
  const std::string other = PilotTokenFileName("there", dead);
  for (const auto& n : {mine, gone, other}) {
    ASSERT_TRUE(WriteTokenFile(dir / n, "old").ok());
  }
  auto taken =
      TakeOverStalePilotTokenFiles(dir.path(), "here", {"new", "127.0.0.1:99"});
  EXPECT_THAT(taken, ElementsAre(dir / gone));
  auto rewritten = ReadPilotRendezvous(dir / gone);
  ASSERT_TRUE(rewritten.ok());
  EXPECT_EQ(rewritten->token, "new");
  EXPECT_EQ(rewritten->connect, "127.0.0.1:99");
  EXPECT_EQ(*ReadTokenFile(dir / mine), "old");
  EXPECT_EQ(*ReadTokenFile(dir / other), "old");
}

}  // namespace
}  // namespace gs
