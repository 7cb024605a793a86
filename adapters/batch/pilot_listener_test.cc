#include "adapters/batch/pilot_listener.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>

#include "adapters/batch/node/pilot_auth.h"
#include "adapters/transport/tcp_stream.h"
#include "runtime/base/asio_clock.h"
#include "tests/support/run_until.h"

namespace gs {
namespace {

class PilotListenerTest : public ::testing::Test {
 protected:
  PilotListenerTest() : clock_(io_) {}

  void SetUp() override {
    PilotListenerOptions options;
    options.token = "t0ken";
    options.greeting_timeout = 0.3;
    auto listener = PilotListener::Listen(
        io_, clock_, options,
        [this](std::string pilot, std::unique_ptr<ByteStream> stream) {
          pilots_.push_back(pilot);
          streams_.push_back(std::move(stream));
        });
    ASSERT_TRUE(listener.ok()) << listener.status().ToString();
    listener_ = std::move(listener).value();
    ASSERT_GT(listener_->port(), 0);
  }

  int Connect() {
    auto fd = ConnectTcp("127.0.0.1", listener_->port(), 5);
    EXPECT_TRUE(fd.ok()) << fd.status().ToString();
    return fd.ok() ? *fd : -1;
  }

  boost::asio::io_context io_;
  AsioClock clock_;
  std::unique_ptr<PilotListener> listener_;
  std::vector<std::string> pilots_;
  std::vector<std::unique_ptr<ByteStream>> streams_;
};

TEST_F(PilotListenerTest, AdmitsAPilotWithTheTokenAndCarriesBytes) {
  const int fd = Connect();
  ASSERT_TRUE(WriteAll(fd, PilotGreeting("t0ken", "p1")).ok());
  ASSERT_TRUE(RunUntil(io_, [&] { return !pilots_.empty(); }));
  EXPECT_EQ(pilots_[0], "p1");
  std::string got;
  bool closed = false;
  streams_[0]->Start([&](std::string_view b) { got += b; },
                     [&](Status) { closed = true; });
  streams_[0]->Write("ping");
  char buf[4];
  ASSERT_TRUE(RunUntil(io_, [&] { return streams_[0]->pending_bytes() == 0; }));
  ASSERT_EQ(::read(fd, buf, 4), 4);
  EXPECT_EQ(std::string(buf, 4), "ping");
  ASSERT_TRUE(WriteAll(fd, "pong").ok());
  ASSERT_TRUE(RunUntil(io_, [&] { return got == "pong"; }));
  ::close(fd);
  ASSERT_TRUE(RunUntil(io_, [&] { return closed; }));
  EXPECT_EQ(listener_->refused(), 0);
}

TEST_F(PilotListenerTest, RefusesAWrongToken) {
  const int fd = Connect();
  ASSERT_TRUE(WriteAll(fd, PilotGreeting("guess", "p1")).ok());
  ASSERT_TRUE(RunUntil(io_, [&] { return listener_->refused() == 1; }));
  EXPECT_TRUE(pilots_.empty());
  EXPECT_NE(listener_->last_refusal().find("token"), std::string::npos);
  char c;
  EXPECT_EQ(::read(fd, &c, 1), 0) << "the master must close the connection";
  ::close(fd);
}

TEST_F(PilotListenerTest, RefusesSilenceAfterTheTimeout) {
  const int fd = Connect();
  ASSERT_TRUE(RunUntil(io_, [&] { return listener_->refused() == 1; }));
  EXPECT_TRUE(pilots_.empty());
  EXPECT_NE(listener_->last_refusal().find("no greeting"), std::string::npos);
  ::close(fd);
}

TEST_F(PilotListenerTest, RefusesProtocolBytesWithoutAGreeting) {
  const int fd = Connect();
  ASSERT_TRUE(WriteAll(fd, std::string("\0\0\0\5\1hello\n", 11)).ok());
  ASSERT_TRUE(RunUntil(io_, [&] { return listener_->refused() == 1; }));
  EXPECT_TRUE(pilots_.empty());
  ::close(fd);
}

TEST_F(PilotListenerTest, RefusesBytesAfterTheGreeting) {
  const int fd = Connect();
  ASSERT_TRUE(WriteAll(fd, PilotGreeting("t0ken", "p1") + "extra").ok());
  ASSERT_TRUE(RunUntil(io_, [&] { return listener_->refused() == 1; }));
  EXPECT_TRUE(pilots_.empty());
  ::close(fd);
}

TEST(TcpStreamTest, ParsesHostPort) {
  auto a = ParseHostPort("127.0.0.1:8080");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->host, "127.0.0.1");
  EXPECT_EQ(a->port, 8080);
  auto b = ParseHostPort("[::1]:9");
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->host, "::1");
  auto c = ParseHostPort("10.0.0.1", 0);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->port, 0);
  for (auto bad : {"", ":1", "h:", "h:x", "h:70000", "::1:2", "10.0.0.1"}) {
    EXPECT_FALSE(ParseHostPort(bad).ok()) << bad;
  }
}

TEST(TcpStreamTest, ConnectingToAClosedPortFailsClearly) {
  // Port 1 on loopback: nothing listens there.
  auto fd = ConnectTcp("127.0.0.1", 1, 2);
  ASSERT_FALSE(fd.ok());
  EXPECT_NE(fd.status().message().find("127.0.0.1:1"), std::string::npos);
}

}  // namespace
}  // namespace gs
