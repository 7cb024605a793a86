#include "adapters/batch/node/pilot_agent.h"

#include <arpa/inet.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <future>
#include <map>
#include <sstream>

#include "adapters/batch/node/pilot_auth.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_files.h"

namespace gs {
namespace {

using ::testing::HasSubstr;

TEST(PilotTokenTest, FromAPrivateFileOrTheEnvironment) {
  TempDir dir;
  AgentArgs args;
  args.token_file = dir / "token";
  ASSERT_TRUE(WriteTokenFile(args.token_file, "t0k3n").ok());
  EXPECT_EQ(*PilotToken(args), "t0k3n");

  args.token_file = "-";
  ::unsetenv("GSRT_PILOT_TOKEN");
  EXPECT_EQ(PilotToken(args).status().code(), Status::Code::kNotFound);
  ::setenv("GSRT_PILOT_TOKEN", "from-env", 1);
  EXPECT_EQ(*PilotToken(args), "from-env");
  ::unsetenv("GSRT_PILOT_TOKEN");
}

TEST(SizedByAllocationTest, APilotOffersItsAllocationNotTheNode) {
  AgentArgs args;
  args.slots = 64;  // the node's hardware threads, --slots not given
  BatchAllocation allocation;
  allocation.cpus = 3;
  allocation.memory_bytes = uint64_t{700} << 20;
  AgentArgs sized = SizedByAllocation(args, allocation);
  EXPECT_EQ(sized.slots, 3);
  EXPECT_EQ(sized.cores_offered, 3u);
  EXPECT_EQ(sized.memory_offered, uint64_t{700} << 20);
}

TEST(SizedByAllocationTest, GivenSlotsWinOverTheAllocation) {
  AgentArgs args;
  args.slots = 8;
  args.slots_given = true;  // the user chose to run 8 jobs in 2 CPUs
  BatchAllocation allocation;
  allocation.cpus = 2;
  AgentArgs sized = SizedByAllocation(args, allocation);
  EXPECT_EQ(sized.slots, 8);
  EXPECT_EQ(sized.cores_offered, 2u);
  EXPECT_EQ(sized.memory_offered, 0u);  // not told: the node's
}

TEST(SizedByAllocationTest, OutsideAnAllocationNothingChanges) {
  AgentArgs args;
  args.slots = 5;
  AgentArgs sized = SizedByAllocation(args, BatchAllocation{});
  EXPECT_EQ(sized.slots, 5);
  EXPECT_EQ(sized.cores_offered, 0u);
  EXPECT_EQ(sized.memory_offered, 0u);
}

TEST(RunPilotAgentTest, NoTokenIsExitOneBeforeAnyConnection) {
  TempDir dir;
  AgentArgs args;
  args.work_dir = dir / "work";
  args.connect = "127.0.0.1:1";
  args.token_file = dir / "absent";
  args.pilot = "p1";
  std::ostringstream err;
  EXPECT_EQ(RunPilotAgent(args, err), kAgentFailed);
  EXPECT_THAT(err.str(), HasSubstr(dir / "absent"));
}

// A master on loopback: the pilot connects, greets with the token and its
// name, and ends in order when the master closes.
TEST(RunPilotAgentTest, GreetsTheMasterThenServesIt) {
  TempDir dir;
  const int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  ASSERT_GE(listener, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  ASSERT_EQ(::bind(listener, reinterpret_cast<sockaddr*>(&addr), len), 0);
  ASSERT_EQ(::listen(listener, 1), 0);
  ASSERT_EQ(::getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &len),
            0);

  AgentArgs args;
  args.work_dir = dir / "work";
  args.slots = 1;
  args.connect = "127.0.0.1:" + std::to_string(ntohs(addr.sin_port));
  args.token_file = dir / "token";
  args.pilot = "p1";
  ASSERT_TRUE(WriteTokenFile(args.token_file, "secret").ok());
  std::ostringstream err;
  std::future<int> pilot =
      std::async(std::launch::async, [&] { return RunPilotAgent(args, err); });

  pollfd pfd{listener, POLLIN, 0};
  ASSERT_EQ(::poll(&pfd, 1, 30000), 1) << "the pilot did not connect";
  const int master = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
  ::close(listener);
  ASSERT_GE(master, 0);
  const std::string expected = PilotGreeting("secret", "p1");
  std::string greeting;
  pollfd in{master, POLLIN, 0};
  while (greeting.size() < expected.size() && ::poll(&in, 1, 30000) == 1) {
    char buf[256];
    const ssize_t n = ::read(master, buf, sizeof buf);
    if (n <= 0) break;
    greeting.append(buf, static_cast<size_t>(n));
  }
  EXPECT_EQ(greeting, expected);
  ::close(master);
  ASSERT_EQ(pilot.wait_for(std::chrono::seconds(30)),
            std::future_status::ready);
  EXPECT_EQ(pilot.get(), kAgentOk) << err.str();
}

TEST(PilotGreetingNameTest, InsideABatchJobThePilotNamesIt) {
  AgentArgs args;
  args.pilot = "c-p0";
  auto env = [](std::map<std::string, std::string> vars) {
    return [vars = std::move(vars)](const char* name) -> const char* {
      auto it = vars.find(name);
      return it == vars.end() ? nullptr : it->second.c_str();
    };
  };
  EXPECT_EQ(PilotGreetingName(args, env({})), "c-p0");
  EXPECT_EQ(PilotGreetingName(args, env({{"SLURM_JOB_ID", "812"}})),
            "c-p0@812");
  EXPECT_EQ(PilotGreetingName(args, env({{"PBS_JOBID", "9.server"}})),
            "c-p0@9.server");
}

// A loopback listener for a test master; its port.
int Listen(int* port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&addr), len) != 0 ||
      ::listen(fd, 1) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    return -1;
  }
  *port = ntohs(addr.sin_port);
  return fd;
}

// What a connection sends until `want` bytes came (or 30 s passed).
std::string ReadGreeting(int listener, size_t want) {
  pollfd pfd{listener, POLLIN, 0};
  if (::poll(&pfd, 1, 30000) != 1) return "(no connection)";
  const int fd = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
  std::string got;
  pollfd in{fd, POLLIN, 0};
  while (got.size() < want && ::poll(&in, 1, 30000) == 1) {
    char buf[256];
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n <= 0) break;
    got.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);  // no SHUTDOWN: as a killed master
  return got;
}

// With --reattach, a pilot whose master went away reads its token file for
// the next master (a master started again rewrote it), greets that one
// with the new token, and ends only when no master came back in time.
TEST(RunPilotAgentTest, APilotThatOutlivesItsMasterGoesToTheNextOne) {
  TempDir dir;
  int first_port = 0, second_port = 0;
  const int first = Listen(&first_port);
  const int second = Listen(&second_port);
  ASSERT_GE(first, 0);
  ASSERT_GE(second, 0);
  AgentArgs args;
  args.work_dir = dir / "work";
  args.slots = 1;
  args.connect = "127.0.0.1:" + std::to_string(first_port);
  args.token_file = dir / "token";
  args.pilot = "p1";
  args.reattach = 3;
  ASSERT_TRUE(WriteTokenFile(args.token_file, "old").ok());
  std::ostringstream err;
  std::future<int> pilot =
      std::async(std::launch::async, [&] { return RunPilotAgent(args, err); });
  EXPECT_EQ(ReadGreeting(first, PilotGreeting("old", "p1").size()),
            PilotGreeting("old", "p1"));
  ::close(first);
  // The master started again takes the file over.
  const std::string next = "127.0.0.1:" + std::to_string(second_port);
  ASSERT_TRUE(WritePilotRendezvous(args.token_file, {"new", next}).ok());
  EXPECT_EQ(ReadGreeting(second, PilotGreeting("new", "p1").size()),
            PilotGreeting("new", "p1"));
  ::close(second);
  // Nobody answers any more: it gives up after --reattach seconds.
  ASSERT_EQ(pilot.wait_for(std::chrono::seconds(30)),
            std::future_status::ready);
  EXPECT_EQ(pilot.get(), kAgentFailed);
  EXPECT_THAT(err.str(), HasSubstr("no master came back within 3 s"));
}

}  // namespace
}  // namespace gs
