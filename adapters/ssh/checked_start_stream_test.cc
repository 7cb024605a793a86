#include "adapters/ssh/checked_start_stream.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <optional>

#include "adapters/agent/memory_stream.h"

namespace gs {
namespace {

using ::testing::HasSubstr;

// The checked stream over one end of a memory pair; the test plays the
// remote command on the other end.
class CheckedStartStreamTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto [near, far] = MemoryStream::Pair(io_);
    remote_ = std::move(far);
    remote_->Start([this](std::string_view b) { to_remote_ += b; },
                   [this](Status) { remote_closed_ = true; });
    stream_ = std::make_unique<CheckedStartStream>(std::move(near), 2, outcome_,
                                                   "host n1");
    stream_->Start([this](std::string_view b) { agent_bytes_ += b; },
                   [this](Status why) { closed_ = why; });
  }
  // What the remote command prints, delivered as one chunk.
  void Print(std::string_view bytes) {
    remote_->Write(bytes);
    io_.poll();
    io_.restart();
  }

  boost::asio::io_context io_;
  std::shared_ptr<CheckedStartOutcome> outcome_ =
      std::make_shared<CheckedStartOutcome>();
  std::unique_ptr<MemoryStream> remote_;
  std::unique_ptr<CheckedStartStream> stream_;
  std::string to_remote_, agent_bytes_;
  bool remote_closed_ = false;
  std::optional<Status> closed_;
};

TEST_F(CheckedStartStreamTest, PassesOnWhatTheAgentSendsAfterTheLine) {
  stream_->Write("HELLO from the master");  // waits there for the agent
  Print("gsrt-check: sa");
  Print("me same\nHEL");
  EXPECT_EQ(agent_bytes_, "HEL");
  Print("LO");
  EXPECT_EQ(agent_bytes_, "HELLO");
  EXPECT_EQ(to_remote_, "HELLO from the master");
  EXPECT_EQ(outcome_->same, (std::vector<bool>{true, true}));
  EXPECT_TRUE(outcome_->agent_spoke);
  EXPECT_FALSE(closed_.has_value());
}

TEST_F(CheckedStartStreamTest, AProgramToInstallClosesTheStream) {
  Print("gsrt-check: same differ\n");
  ASSERT_TRUE(closed_.has_value());
  EXPECT_EQ(closed_->code(), Status::Code::kFailedPrecondition);
  EXPECT_THAT(closed_->message(), HasSubstr("host n1"));
  EXPECT_EQ(outcome_->same, (std::vector<bool>{true, false}));
  EXPECT_TRUE(remote_closed_) << "the channel is closed";
  EXPECT_EQ(agent_bytes_, "");
}

TEST_F(CheckedStartStreamTest, SomethingElseThanTheLineConfirmsNothing) {
  Print("Welcome to node1\ngsrt-check: same same\n");
  ASSERT_TRUE(closed_.has_value());
  EXPECT_THAT(closed_->message(), HasSubstr("`Welcome to node1`"));
  EXPECT_FALSE(outcome_->same.has_value());
  EXPECT_EQ(agent_bytes_, "");
}

TEST_F(CheckedStartStreamTest, AnEndlessFirstLineIsNotWaitedFor) {
  Print(std::string(InstallCheckLineLimit(2), 'x'));
  ASSERT_TRUE(closed_.has_value());
  EXPECT_FALSE(outcome_->same.has_value());
}

TEST_F(CheckedStartStreamTest, AnAgentThatEndsWithoutAWordEndedSilent) {
  Print("gsrt-check: same same\n");
  remote_->Close();
  io_.poll();
  ASSERT_TRUE(closed_.has_value());
  EXPECT_TRUE(outcome_->ended_silent);
  EXPECT_FALSE(outcome_->agent_spoke);
}

TEST_F(CheckedStartStreamTest, AnAgentThatSpokeDidNotEndSilent) {
  Print("gsrt-check: same same\nERROR");
  remote_->Close();
  io_.poll();
  ASSERT_TRUE(closed_.has_value());
  EXPECT_FALSE(outcome_->ended_silent);
}

}  // namespace
}  // namespace gs
