// SshChannelStream against real OpenSSH servers on 127.0.0.x: byte-exact
// echo with flow control, exit statuses, a killed connection, several
// channels on one session.
#include "adapters/ssh/ssh_channel_stream.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>

#include <boost/asio/io_context.hpp>
#include <chrono>
#include <iostream>
#include <optional>
#include <random>

#include "adapters/ssh/ssh_remote.h"
#include "runtime/base/asio_clock.h"
#include "tests/support/run_until.h"
#include "tests/support/ssh_command_cost.h"
#include "tests/support/sshd_testbed.h"

namespace gs {
namespace {

using ::gs::testing::AsDuration;
using ::gs::testing::BoundFor;
using ::gs::testing::CommandCost;
using ::gs::testing::Sshd;
using ::testing::HasSubstr;

static auto* const kSshd = ::gs::testing::SshdEnvironment::Register(3);

std::string RandomBytes(size_t n) {
  std::mt19937_64 rng(42);
  std::string s(n, '\0');
  for (size_t i = 0; i < n; i += 8) {
    const uint64_t v = rng();
    for (size_t j = 0; j < 8 && i + j < n; ++j) {
      s[i + j] = static_cast<char>((v >> (8 * j)) & 0xff);
    }
  }
  return s;
}

class SshChannelStreamTest : public ::testing::Test {
 protected:
  std::shared_ptr<SshSession> Connect(int host) {
    auto s = SshSession::Connect(io_, clock_, Sshd().Target(host));
    EXPECT_TRUE(s.ok()) << s.status().ToString();
    return s.ok() ? *s : nullptr;
  }

  // Opens and starts a stream, collecting what it delivers.
  struct Collected {
    std::string data;
    std::optional<Status> closed;
  };
  std::unique_ptr<SshChannelStream> Start(std::shared_ptr<SshSession> s,
                                          std::vector<std::string> argv,
                                          Collected* c) {
    auto stream = SshChannelStream::Open(std::move(s), argv);
    EXPECT_TRUE(stream.ok()) << stream.status().ToString();
    (*stream)->Start([c](std::string_view b) { c->data.append(b); },
                     [c](Status st) {
                       EXPECT_FALSE(c->closed.has_value()) << "closed twice";
                       c->closed = st;
                     });
    return std::move(*stream);
  }

  boost::asio::io_context io_;
  AsioClock clock_{io_};
};

TEST_F(SshChannelStreamTest, EchoesFiveMegabytesThroughCatByteExact) {
  auto session = Connect(1);
  ASSERT_TRUE(session);
  Collected c;
  auto stream = Start(session, {"cat"}, &c);
  // Once `cat` answers, the channel is up: time the transfer alone.
  stream->Write("ping");
  ASSERT_TRUE(RunUntil(io_, [&] { return c.data == "ping"; }));
  c.data.clear();
  const std::string data = RandomBytes(5 * 1024 * 1024);
  const auto start = std::chrono::steady_clock::now();
  stream->Write(data);
  // More than a channel window: the rest waits in the queue.
  EXPECT_GT(stream->pending_bytes(), 0u);
  ASSERT_TRUE(RunUntil(
      io_, [&] { return c.data.size() >= data.size() || c.closed.has_value(); },
      std::chrono::seconds(60)));
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  ASSERT_FALSE(c.closed.has_value()) << c.closed->ToString();
  EXPECT_EQ(stream->pending_bytes(), 0u);
  ASSERT_EQ(c.data.size(), data.size());
  EXPECT_TRUE(c.data == data) << "bytes differ";
  std::cout << "[ measure ] 5 MiB through `cat` and back: " << secs * 1000
            << " ms, " << 5.0 / secs << " MiB/s each way\n";
  RecordProperty("echo_5mib_ms", std::to_string(secs * 1000));
}

TEST_F(SshChannelStreamTest, OrderlyExitIsOkAndFailureNamesStatusAndStderr) {
  auto session = Connect(1);
  ASSERT_TRUE(session);
  Collected ok, bad;
  auto s1 = Start(session, {"echo", "bye"}, &ok);
  auto s2 = Start(session, {"sh", "-c", "echo oops >&2; exit 3"}, &bad);
  ASSERT_TRUE(RunUntil(io_, [&] { return ok.closed && bad.closed; }));
  EXPECT_TRUE(ok.closed->ok()) << ok.closed->ToString();
  EXPECT_EQ(ok.data, "bye\n");
  EXPECT_EQ(s1->exit_status(), 0);
  EXPECT_FALSE(bad.closed->ok());
  EXPECT_THAT(bad.closed->message(), HasSubstr("exit status 3"));
  EXPECT_THAT(bad.closed->message(), HasSubstr("oops"));
  EXPECT_THAT(bad.closed->message(), HasSubstr("node1"));
  EXPECT_EQ(s2->exit_status(), 3);
}

TEST_F(SshChannelStreamTest, KilledConnectionClosesTheStreamWithAnError) {
  auto session = Connect(3);
  ASSERT_TRUE(session);
  Collected c;
  auto stream = Start(session, {"cat"}, &c);
  stream->Write("ping");
  ASSERT_TRUE(RunUntil(io_, [&] { return c.data == "ping"; }));
  ASSERT_GT(Sshd().SignalSessions(3, SIGKILL), 0);
  const auto start = std::chrono::steady_clock::now();
  ASSERT_TRUE(RunUntil(
      io_, [&] { return c.closed.has_value(); }, std::chrono::seconds(10)));
  EXPECT_LT(
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count(),
      5.0);
  EXPECT_FALSE(c.closed->ok());
  EXPECT_EQ(c.closed->code(), Status::Code::kUnavailable);
  EXPECT_THAT(c.closed->message(), HasSubstr("node3 (127.0.0.4:"));
  EXPECT_THAT(c.closed->message(), HasSubstr("lost"));
  EXPECT_TRUE(session->lost());
  // Writes after the end are dropped, not queued.
  stream->Write("more");
  EXPECT_EQ(stream->pending_bytes(), 0u);
}

TEST_F(SshChannelStreamTest, SeveralChannelsShareOneSession) {
  auto session = Connect(2);
  ASSERT_TRUE(session);
  const double cost = CommandCost(*session);
  ASSERT_GT(cost, 0);
  Collected a, b;
  auto sa = Start(session, {"cat"}, &a);
  auto sb = Start(session, {"cat"}, &b);
  std::vector<std::optional<StatusOr<CommandResult>>> results(3);
  for (int i = 0; i < 3; ++i) {
    RunCommandAsync(session, {"echo", "cmd" + std::to_string(i)}, {},
                    [&results, i](StatusOr<CommandResult> r) {
                      results[i] = std::move(r);
                    });
  }
  sa->Write("to a");
  sb->Write("to b");
  ASSERT_TRUE(RunUntil(
      io_,
      [&] {
        return a.data == "to a" && b.data == "to b" && results[0] &&
               results[1] && results[2];
      },
      AsDuration(BoundFor(5, cost))));
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(results[i]->ok()) << results[i]->status().ToString();
    EXPECT_EQ((*results[i])->out, "cmd" + std::to_string(i) + "\n");
  }
  // A blocking command in between leaves the streams working.
  auto r = RunCommand(*session, {"echo", "sync"});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->out, "sync\n");
  sa->Write(" again");
  ASSERT_TRUE(RunUntil(io_, [&] { return a.data == "to a again"; }));
  // Close() ends one stream quietly; the other goes on.
  sa->Close();
  sb->Write("!");
  ASSERT_TRUE(RunUntil(io_, [&] { return b.data == "to b!"; }));
  EXPECT_FALSE(a.closed.has_value());
  EXPECT_FALSE(b.closed.has_value());
}

// Many channels at once make libssh process one channel's packets inside
// calls made for another; nothing may be left waiting.
TEST_F(SshChannelStreamTest, ConcurrentCommandsAndStreamsAllFinish) {
  auto session = Connect(2);
  ASSERT_TRUE(session);
  constexpr int kCommands = 20;
  constexpr int kStreams = 3;
  // All 23 start at once: the host may start their shells one by one.
  const double cost = CommandCost(*session);
  ASSERT_GT(cost, 0);
  RunOptions options;
  options.timeout = BoundFor(kCommands + kStreams, cost);
  std::vector<Collected> got(kStreams);
  std::vector<std::unique_ptr<SshChannelStream>> streams;
  const std::string data = RandomBytes(1 << 20);
  for (int i = 0; i < kStreams; ++i) {
    streams.push_back(Start(session, {"cat"}, &got[i]));
    streams.back()->Write(data);
  }
  int ok = 0;
  for (int i = 0; i < kCommands; ++i) {
    RunCommandAsync(session, {"printf", "%s", std::to_string(i)}, options,
                    [&ok, i](StatusOr<CommandResult> r) {
                      EXPECT_TRUE(r.ok()) << r.status().ToString();
                      if (r.ok() && r->out == std::to_string(i)) ++ok;
                    });
  }
  ASSERT_TRUE(RunUntil(
      io_,
      [&] {
        for (const auto& g : got) {
          if (g.data.size() < data.size() && !g.closed) return false;
        }
        return ok == kCommands;
      },
      // The commands' own bound, then a minute for 3 MiB each way.
      AsDuration(options.timeout + 60)));
  for (const auto& g : got) {
    EXPECT_FALSE(g.closed.has_value());
    EXPECT_TRUE(g.data == data);
  }
}

TEST_F(SshChannelStreamTest, DestroyingAStreamFromItsCallbackIsSafe) {
  auto session = Connect(1);
  ASSERT_TRUE(session);
  const double cost = CommandCost(*session);
  ASSERT_GT(cost, 0);
  auto opened = SshChannelStream::Open(session, {"echo", "x"});
  ASSERT_TRUE(opened.ok());
  std::unique_ptr<SshChannelStream> stream = std::move(*opened);
  bool got = false;
  stream->Start(
      [&](std::string_view) {
        got = true;  // first: the reset destroys this lambda
        stream.reset();
      },
      [&](Status) { ADD_FAILURE() << "closed after destruction"; });
  ASSERT_TRUE(RunUntil(
      io_, [&] { return got; }, AsDuration(BoundFor(1, cost))));
  RunUntil(
      io_, [] { return false; }, std::chrono::milliseconds(300));
  EXPECT_EQ(stream, nullptr);
}

TEST_F(SshChannelStreamTest, CommandsWithNulBytesAreRejected) {
  auto session = Connect(1);
  ASSERT_TRUE(session);
  auto bad = SshChannelStream::Open(session, {"echo", std::string("a\0b", 3)});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), Status::Code::kInvalidArgument);
}

}  // namespace
}  // namespace gs
