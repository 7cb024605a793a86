#include "adapters/agent/agent_serve.h"

#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <sstream>

#include "tests/support/temp_dir.h"

namespace gs {
namespace {

namespace fs = std::filesystem;

TEST(PrepareWorkDirTest, CreatesItAndResolvesSymlinks) {
  TempDir dir;
  fs::create_directories(dir / "real");
  fs::create_directory_symlink(dir / "real", dir / "link");
  const std::string made = PrepareWorkDir(dir / "link/a/b");
  EXPECT_EQ(made, (fs::canonical(dir.path()) / "real/a/b").string());
  EXPECT_TRUE(fs::is_directory(made));
}

TEST(PrepareWorkDirTest, UnusablePathIsReturnedAsGiven) {
  TempDir dir;
  std::ofstream(dir / "file") << "x";
  EXPECT_EQ(PrepareWorkDir(dir / "file/sub"), dir / "file/sub");
}

// The agent on one end of a socket pair, the test as its master on the
// other.
class ServeMasterTest : public ::testing::Test {
 protected:
  ServeMasterTest() {
    EXPECT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv_), 0);
    args_.work_dir = dir_ / "work";
    args_.slots = 1;
  }
  ~ServeMasterTest() override {
    if (sv_[0] >= 0) ::close(sv_[0]);
  }

  std::future<int> Serve() {
    const int agent_in = sv_[1];
    const int agent_out = ::fcntl(sv_[1], F_DUPFD_CLOEXEC, 3);
    return std::async(std::launch::async, [=, this] {
      return ServeMaster(agent_in, agent_out, args_, nullptr, err_);
    });
  }

  // What the agent wrote before it closed its end (bounded).
  std::string ReadUntilClosed() {
    std::string got;
    char buf[4096];
    pollfd pfd{sv_[0], POLLIN, 0};
    while (::poll(&pfd, 1, 30000) == 1) {
      const ssize_t n = ::read(sv_[0], buf, sizeof buf);
      if (n <= 0) break;
      got.append(buf, static_cast<size_t>(n));
    }
    return got;
  }

  TempDir dir_;
  int sv_[2] = {-1, -1};
  AgentArgs args_;
  std::ostringstream err_;
};

TEST_F(ServeMasterTest, AMasterThatLeavesAtOnceIsAnOrderlyEnd) {
  std::future<int> served = Serve();
  ::shutdown(sv_[0], SHUT_WR);
  ASSERT_EQ(served.wait_for(std::chrono::seconds(30)),
            std::future_status::ready);
  EXPECT_EQ(served.get(), kAgentOk) << err_.str();
  EXPECT_TRUE(fs::is_directory(dir_ / "work"));
}

TEST_F(ServeMasterTest, GarbageIsAProtocolErrorToldToTheMaster) {
  std::future<int> served = Serve();
  const std::string junk(64, '\xff');  // a frame length far too large
  ASSERT_EQ(::write(sv_[0], junk.data(), junk.size()),
            static_cast<ssize_t>(junk.size()));
  const std::string answer = ReadUntilClosed();
  ASSERT_EQ(served.wait_for(std::chrono::seconds(30)),
            std::future_status::ready);
  EXPECT_EQ(served.get(), kAgentFailed);
  EXPECT_FALSE(answer.empty()) << "no ERROR frame before the end";
}

}  // namespace
}  // namespace gs
