#include "adapters/transport/pipe_stream.h"

#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <chrono>
#include <cstdio>
#include <optional>
#include <random>

#include "tests/support/run_until.h"

namespace gs {
namespace {

using ::testing::HasSubstr;

class PipeStreamTest : public ::testing::Test {
 protected:
  std::unique_ptr<PipeStream> Spawn(std::vector<std::string> argv,
                                    Seconds grace = 2) {
    auto s = PipeStream::Spawn(io_, argv, grace);
    EXPECT_TRUE(s.ok()) << s.status().ToString();
    if (!s.ok()) return nullptr;
    auto stream = std::move(s).value();
    stream->Start([this](std::string_view b) { received_.append(b); },
                  [this](Status why) {
                    EXPECT_FALSE(closed_.has_value()) << "closed twice";
                    closed_ = why;
                  });
    return stream;
  }

  bool WaitClosed() {
    return RunUntil(io_, [&] { return closed_.has_value(); });
  }

  static bool Gone(pid_t pid) { return ::kill(pid, 0) != 0 && errno == ESRCH; }

  boost::asio::io_context io_;
  std::string received_;
  std::optional<Status> closed_;
};

TEST_F(PipeStreamTest, BytesGoThroughACatInOrder) {
  auto stream = Spawn({"cat"});
  ASSERT_NE(stream, nullptr);
  std::mt19937 rng(1);
  std::string sent;
  // More than any socket buffer: Write must queue, never block.
  while (sent.size() < (6u << 20)) {
    std::string piece(1 + rng() % 70000, '\0');
    for (char& c : piece) c = static_cast<char>(rng());
    stream->Write(piece);
    sent += piece;
  }
  EXPECT_GT(stream->pending_bytes(), 0u);
  ASSERT_TRUE(RunUntil(io_, [&] { return received_.size() >= sent.size(); }));
  EXPECT_EQ(received_, sent);
  EXPECT_EQ(stream->pending_bytes(), 0u);
  const pid_t pid = stream->pid();
  stream->Close();
  EXPECT_TRUE(Gone(pid));             // reaped, no zombie
  EXPECT_FALSE(closed_.has_value());  // no callback after Close()
}

TEST_F(PipeStreamTest, CleanExitIsAnOrderlyClose) {
  auto stream = Spawn({"/bin/true"});
  ASSERT_TRUE(WaitClosed());
  EXPECT_TRUE(closed_->ok()) << closed_->ToString();
}

TEST_F(PipeStreamTest, ExitCodeIsTheReason) {
  // A test may start a shell; PipeStream itself never involves one.
  auto stream = Spawn({"/bin/sh", "-c", "echo -n hi; exit 3"});
  ASSERT_TRUE(WaitClosed());
  EXPECT_EQ(received_, "hi");
  EXPECT_EQ(closed_->code(), Status::Code::kUnavailable);
  EXPECT_THAT(closed_->message(), HasSubstr("'sh'"));
  EXPECT_THAT(closed_->message(), HasSubstr("exited with code 3"));
}

TEST_F(PipeStreamTest, KilledChildNamesTheSignal) {
  auto stream = Spawn({"cat"});
  ASSERT_NE(stream, nullptr);
  ::kill(stream->pid(), SIGKILL);
  ASSERT_TRUE(WaitClosed());
  EXPECT_THAT(closed_->message(), HasSubstr("killed by signal 9 (SIGKILL)"));
}

TEST_F(PipeStreamTest, MissingProgramIsAnError) {
  auto s = PipeStream::Spawn(io_, {"/no/such/gsrt-agent"});
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(s.status().message(), HasSubstr("/no/such/gsrt-agent"));
  EXPECT_FALSE(PipeStream::Spawn(io_, {}).ok());
}

TEST_F(PipeStreamTest, CloseKillsAChildThatDoesNotLeave) {
  auto stream = Spawn({"sleep", "30"}, 0.2);
  ASSERT_NE(stream, nullptr);
  const pid_t pid = stream->pid();
  const auto t0 = std::chrono::steady_clock::now();
  stream->Close();
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5));
  EXPECT_TRUE(Gone(pid));
}

TEST_F(PipeStreamTest, WritingToAChildThatClosedItsInputRaisesNoSigpipe) {
  // The child drops its end of the channel but lives on.
  auto stream =
      Spawn({"/bin/sh", "-c", "exec </dev/null >/dev/null; sleep 30"}, 0.2);
  ASSERT_NE(stream, nullptr);
  const std::string big(1 << 20, 'x');
  stream->Write(big);  // EPIPE, not a signal that kills this test
  ASSERT_TRUE(WaitClosed());
  EXPECT_FALSE(closed_->ok());
  stream->Write(big);  // after the end: dropped
  EXPECT_EQ(stream->pending_bytes(), 0u);
}

TEST_F(PipeStreamTest, DestroyingTheStreamInsideItsCallbackIsSafe) {
  auto s = PipeStream::Spawn(io_, {"/bin/sh", "-c", "echo one; sleep 30"}, 0.2);
  ASSERT_TRUE(s.ok());
  std::unique_ptr<PipeStream> stream = std::move(s).value();
  bool got = false;
  stream->Start(
      [&](std::string_view) {
        got = true;
        stream.reset();  // Close() from inside on_data
      },
      [](Status) { ADD_FAILURE() << "no callback after Close()"; });
  ASSERT_TRUE(RunUntil(io_, [&] { return got; }));
  RunReady(io_);
  EXPECT_EQ(stream, nullptr);
}

TEST_F(PipeStreamTest, AdoptedPipesEndInOrder) {
  int to_stream[2], from_stream[2];
  ASSERT_EQ(::pipe2(to_stream, O_CLOEXEC), 0);
  ASSERT_EQ(::pipe2(from_stream, O_CLOEXEC), 0);
  auto s = PipeStream::Adopt(io_, to_stream[0], from_stream[1]);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  auto stream = std::move(s).value();
  stream->Start([&](std::string_view b) { received_.append(b); },
                [&](Status why) { closed_ = why; });
  ASSERT_EQ(::write(to_stream[1], "ping", 4), 4);
  ASSERT_TRUE(RunUntil(io_, [&] { return received_ == "ping"; }));
  stream->Write("pong");
  char buf[8] = {};
  ASSERT_EQ(::read(from_stream[0], buf, sizeof buf), 4);
  EXPECT_EQ(std::string(buf, 4), "pong");
  EXPECT_TRUE(stream->Flush(1).ok());
  ::close(to_stream[1]);
  ASSERT_TRUE(WaitClosed());
  EXPECT_TRUE(closed_->ok());
  ::close(from_stream[0]);
}

TEST_F(PipeStreamTest, RegularFileInputIsReadToItsEnd) {
  FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  std::fputs("recorded", f);
  std::fflush(f);
  std::rewind(f);
  int out[2];
  ASSERT_EQ(::pipe2(out, O_CLOEXEC), 0);
  auto s = PipeStream::Adopt(io_, ::dup(fileno(f)), out[1]);
  std::fclose(f);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  auto stream = std::move(s).value();
  stream->Start([&](std::string_view b) { received_.append(b); },
                [&](Status why) { closed_ = why; });
  ASSERT_TRUE(WaitClosed());
  EXPECT_EQ(received_, "recorded");
  EXPECT_TRUE(closed_->ok());
  ::close(out[0]);
}

}  // namespace
}  // namespace gs
