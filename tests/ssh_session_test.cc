// SshSession against real OpenSSH servers on 127.0.0.x (tests/testbed/sshd.sh):
// host key checking, authentication, refused and silent ports, keepalives.
#include "adapters/ssh/ssh_session.h"

#include <arpa/inet.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <chrono>
#include <fstream>
#include <iostream>
#include <sstream>

#include "adapters/ssh/ssh_channel_stream.h"
#include "adapters/ssh/ssh_remote.h"
#include "runtime/base/asio_clock.h"
#include "tests/support/run_until.h"
#include "tests/support/sshd_testbed.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_files.h"

namespace gs {
namespace {

using ::gs::testing::Sshd;
using ::testing::HasSubstr;

static auto* const kSshd = ::gs::testing::SshdEnvironment::Register(3);

double Since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

// A TCP socket on 127.0.0.1 bound to a free port; listening (accepting
// connections into the backlog, never answering) or closed again.
class LoopbackPort {
 public:
  explicit LoopbackPort(bool listen) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    EXPECT_EQ(::bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof(a)), 0);
    socklen_t len = sizeof(a);
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len);
    port_ = ntohs(a.sin_port);
    if (listen) {
      EXPECT_EQ(::listen(fd_, 8), 0);
    } else {
      ::close(fd_);
      fd_ = -1;
    }
  }
  ~LoopbackPort() {
    if (fd_ >= 0) ::close(fd_);
  }
  int port() const { return port_; }

 private:
  int fd_ = -1;
  int port_ = 0;
};

class SshSessionTest : public ::testing::Test {
 protected:
  StatusOr<std::shared_ptr<SshSession>> Connect(const SshTarget& t) {
    return SshSession::Connect(io_, clock_, t);
  }
  boost::asio::io_context io_;
  AsioClock clock_{io_};
  TempDir tmp_;
};

TEST_F(SshSessionTest, ConnectsAndRunsEchoWithAwkwardArguments) {
  const auto start = std::chrono::steady_clock::now();
  auto session = Connect(Sshd().Target(1));
  const double connect_s = Since(start);
  ASSERT_TRUE(session.ok()) << session.status().ToString();
  std::cout << "[ measure ] connect (TCP + handshake + host key + auth): "
            << connect_s * 1000 << " ms\n";
  RecordProperty("connect_ms", std::to_string(connect_s * 1000));

  const std::vector<std::string> words = {
      "a b",    "it's",         "\"dq\"", "semi;colon", "$HOME", "`id`",
      "$(id)",  "line1\nline2", "",       "*",          "~",     "back\\slash",
      "tab\tx", "!x",           "'",      "-n"};
  std::vector<std::string> argv = {"printf", "[%s]"};
  argv.insert(argv.end(), words.begin(), words.end());
  auto r = RunCommand(**session, argv);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  std::string expected;
  for (const auto& w : words) expected += "[" + w + "]";
  EXPECT_EQ(r->out, expected);
  EXPECT_EQ(r->exit_code, 0);

  auto echo = RunCommand(**session, {"echo", "a  b", "$HOME", "'q'", "x;y"});
  ASSERT_TRUE(echo.ok()) << echo.status().ToString();
  EXPECT_EQ(echo->out, "a  b $HOME 'q' x;y\n");
}

TEST_F(SshSessionTest, StrictRefusesAnUnknownHostKeyShowingItsFingerprint) {
  SshTarget t = Sshd().Target(1);
  t.known_hosts = tmp_ / "known_hosts";
  WriteText(t.known_hosts, "");
  auto session = Connect(t);
  ASSERT_FALSE(session.ok());
  const Status& s = session.status();
  EXPECT_EQ(s.code(), Status::Code::kPermissionDenied);
  EXPECT_THAT(s.message(), HasSubstr("node1"));
  EXPECT_THAT(s.message(),
              HasSubstr("127.0.0.2:" + std::to_string(Sshd().port())));
  EXPECT_THAT(s.message(), HasSubstr("ssh-ed25519"));
  const std::string fp = Sshd().Fingerprint(1);
  ASSERT_THAT(fp, ::testing::StartsWith("SHA256:"));
  EXPECT_THAT(s.message(), HasSubstr(fp));
  EXPECT_THAT(s.message(),
              HasSubstr("ssh-keyscan -p " + std::to_string(Sshd().port()) +
                        " 127.0.0.2 >> " + t.known_hosts));
  EXPECT_EQ(ReadAll(t.known_hosts), "");  // nothing recorded
}

TEST_F(SshSessionTest, ChangedHostKeyIsRefusedUnderStrictAndAcceptNew) {
  // The file says host 1 has host 2's key: to host 1 that is a change.
  SshTarget t = Sshd().Target(1);
  t.known_hosts = tmp_ / "known_hosts";
  const std::string text =
      "# kept\n[127.0.0.2]:" + std::to_string(Sshd().port()) + " " +
      Sshd().HostKeyLine(2) + "\n";
  WriteText(t.known_hosts, text);
  for (HostKeyCheck check : {HostKeyCheck::kStrict, HostKeyCheck::kAcceptNew}) {
    t.host_key_check = check;
    auto session = Connect(t);
    ASSERT_FALSE(session.ok()) << HostKeyCheckName(check);
    const Status& s = session.status();
    EXPECT_EQ(s.code(), Status::Code::kPermissionDenied);
    EXPECT_THAT(s.message(), HasSubstr("CHANGED"));
    EXPECT_THAT(s.message(), HasSubstr(Sshd().Fingerprint(1)));
    EXPECT_THAT(s.message(),
                HasSubstr("remove the old line 2 of " + t.known_hosts));
    EXPECT_EQ(ReadAll(t.known_hosts), text) << "the file must stay as it was";
  }
}

TEST_F(SshSessionTest, AcceptNewRecordsTheKeyAndStrictThenAccepts) {
  SshTarget t = Sshd().Target(2);
  t.known_hosts = tmp_ / "sub/known_hosts";  // not there yet
  t.host_key_check = HostKeyCheck::kAcceptNew;
  {
    auto first = Connect(t);
    ASSERT_TRUE(first.ok()) << first.status().ToString();
  }
  const std::string recorded = ReadAll(t.known_hosts);
  EXPECT_THAT(recorded,
              HasSubstr("[127.0.0.3]:" + std::to_string(Sshd().port()) + " " +
                        Sshd().HostKeyLine(2)));
  t.host_key_check = HostKeyCheck::kStrict;
  auto second = Connect(t);
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  auto r = RunCommand(**second, {"echo", "ok"});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->out, "ok\n");
  EXPECT_EQ(ReadAll(t.known_hosts), recorded);  // recorded once
}

TEST_F(SshSessionTest, WrongClientKeyIsRefusedNamingUserHostAndIdentity) {
  const std::string key = tmp_ / "other_key";
  auto [rc, out] =
      ::gs::testing::Shell("ssh-keygen -q -t ed25519 -N '' -C other -f " + key);
  ASSERT_EQ(rc, 0) << out;
  SshTarget t = Sshd().Target(1);
  t.identity = key;
  t.user = ::gs::testing::Shell("id -un").second;
  t.user.erase(t.user.find_last_not_of("\n") + 1);
  auto session = Connect(t);
  ASSERT_FALSE(session.ok());
  const Status& s = session.status();
  EXPECT_EQ(s.code(), Status::Code::kPermissionDenied);
  EXPECT_THAT(s.message(), HasSubstr("user " + t.user));
  EXPECT_THAT(s.message(), HasSubstr("node1"));
  EXPECT_THAT(s.message(), HasSubstr(key));
  EXPECT_THAT(s.message(), HasSubstr("authorized_keys"));

  t.identity = tmp_ / "missing_key";
  auto missing = Connect(t);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), Status::Code::kNotFound);
  EXPECT_THAT(missing.status().message(), HasSubstr(t.identity));
}

TEST_F(SshSessionTest, ClosedPortIsRefusedFast) {
  LoopbackPort closed(/*listen=*/false);
  SshTarget t = Sshd().Target(1);
  t.name = "shut";
  t.address = "127.0.0.1";
  t.port = closed.port();
  t.connect_timeout = 10;
  const auto start = std::chrono::steady_clock::now();
  auto session = Connect(t);
  const double took = Since(start);
  ASSERT_FALSE(session.ok());
  EXPECT_EQ(session.status().code(), Status::Code::kUnavailable);
  EXPECT_THAT(session.status().message(), HasSubstr("refused"));
  EXPECT_THAT(session.status().message(),
              HasSubstr("127.0.0.1:" + std::to_string(t.port)));
  EXPECT_LT(took, 1.0);
}

TEST_F(SshSessionTest, SilentPortTimesOutWithinTheBound) {
  LoopbackPort silent(/*listen=*/true);  // accepts, never speaks
  SshTarget t = Sshd().Target(1);
  t.name = "mute";
  t.address = "127.0.0.1";
  t.port = silent.port();
  t.connect_timeout = 1.0;
  const auto start = std::chrono::steady_clock::now();
  auto session = Connect(t);
  const double took = Since(start);
  ASSERT_FALSE(session.ok());
  EXPECT_EQ(session.status().code(), Status::Code::kTimedOut)
      << session.status().ToString();
  EXPECT_THAT(session.status().message(), HasSubstr("mute"));
  EXPECT_THAT(session.status().message(), HasSubstr("within 1 s"));
  EXPECT_GE(took, 0.9);
  EXPECT_LT(took, 3.0);
}

TEST_F(SshSessionTest, AHungHostIsDetectedByKeepalives) {
  SshTarget t = Sshd().Target(2);
  // Generous enough that a loaded 2-core machine (a build and the tests in
  // parallel) does not make a healthy idle connection look hung.
  t.keepalive_interval = 1.0;
  t.keepalive_count_max = 4;
  auto session = Connect(t);
  ASSERT_TRUE(session.ok()) << session.status().ToString();
  // An idle but healthy connection survives several intervals.
  RunUntil(
      io_, [] { return false; }, std::chrono::milliseconds(2500));
  ASSERT_FALSE((*session)->lost()) << (*session)->lost_status().ToString();

  auto stream = SshChannelStream::Open(*session, {"cat"});
  ASSERT_TRUE(stream.ok());
  std::string got;
  std::optional<Status> closed;
  (*stream)->Start([&](std::string_view b) { got.append(b); },
                   [&](Status s) { closed = s; });
  (*stream)->Write("ping");
  ASSERT_TRUE(RunUntil(io_, [&] { return got == "ping"; }));

  ASSERT_GT(Sshd().SignalSessions(2, SIGSTOP), 0);
  const auto start = std::chrono::steady_clock::now();
  const bool noticed = RunUntil(
      io_, [&] { return closed.has_value(); }, std::chrono::seconds(20));
  Sshd().SignalSessions(2, SIGKILL);  // SIGKILL ends stopped processes too
  ASSERT_TRUE(noticed);
  // Four unanswered intervals of 1 s, plus up to one interval of phase.
  EXPECT_GE(Since(start), 2.0);
  EXPECT_LT(Since(start), 10.0);
  EXPECT_EQ(closed->code(), Status::Code::kUnavailable);
  EXPECT_THAT(closed->message(), HasSubstr("keepalives unanswered"));
  EXPECT_THAT(closed->message(), HasSubstr("node2"));
  EXPECT_TRUE((*session)->lost());
}

}  // namespace
}  // namespace gs
