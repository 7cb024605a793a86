#include "adapters/agent/chunk_pump.h"

#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <map>
#include <random>

#include "adapters/agent/memory_stream.h"
#include "tests/support/fake_clock.h"
#include "tests/support/run_until.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_files.h"

namespace gs {
namespace {

using agent::MessageType;

class ChunkPumpTest : public ::testing::Test {
 protected:
  ChunkPumpTest() {
    auto [a, b] = MemoryStream::Pair(io_);
    out_ = std::move(a);
    in_ = std::move(b);
    out_->Start([](std::string_view) {}, [](Status) {});
    in_->Start(
        [this](std::string_view bytes) {
          decoder_.Append(bytes);
          while (true) {
            auto next = decoder_.Next();
            ASSERT_TRUE(next.ok()) << next.status().ToString();
            if (!next->has_value()) return;
            Take(**next);
          }
        },
        [](Status) {});
  }

  void Take(agent::Message& m) {
    if (auto* c = std::get_if<agent::GetChunk>(&m)) {
      EXPECT_LE(c->data.size(), options_.chunk_bytes);
      data_[c->id] += c->data;
      order_.push_back(c->id);
    } else if (auto* e = std::get_if<agent::GetEnd>(&m)) {
      ends_[e->id] = *e;
    } else if (auto* err = std::get_if<agent::Error>(&m)) {
      errors_[err->request] = err->message;
    } else {
      ADD_FAILURE() << "unexpected " << agent::TypeName(agent::TypeOf(m));
    }
  }

  std::string MakeFile(const std::string& name, size_t size, int seed) {
    std::mt19937 rng(seed);
    std::string data(size, '\0');
    for (char& c : data) c = static_cast<char>(rng());
    WriteText(dir_ / name, data);
    return data;
  }

  int Open(const std::string& name) {
    return ::open((dir_ / name).c_str(), O_RDONLY | O_CLOEXEC);
  }

  // Delivers what is queued and lets the pump look again, until `done`.
  template <typename Pred>
  bool Drive(Pred done) {
    for (int i = 0; i < 100000 && !done(); ++i) {
      RunReady(io_);
      clock_.Advance(options_.poll);
    }
    return done();
  }

  TempDir dir_;
  boost::asio::io_context io_;
  FakeClock clock_;
  ChunkPumpOptions options_{
      .chunk_bytes = 64 << 10, .high_water = 128 << 10, .poll = 0.001};
  std::unique_ptr<MemoryStream> out_, in_;
  agent::FrameDecoder decoder_;
  std::map<uint64_t, std::string> data_;
  std::map<uint64_t, agent::GetEnd> ends_;
  std::map<uint64_t, std::string> errors_;
  std::vector<uint64_t> order_;
};

TEST_F(ChunkPumpTest, SendsAFileInChunksWithinTheHighWaterMark) {
  const std::string data = MakeFile("big", 3 << 20, 1);
  ChunkPump pump(clock_, options_);
  pump.set_stream(out_.get());
  std::optional<Status> done;
  pump.Add(7, Open("big"), MessageType::kGetChunk, MessageType::kGetEnd,
           [&](Status s) { done = s; });
  // Never the whole file in memory: at most the mark plus one chunk.
  EXPECT_LE(out_->pending_bytes(),
            options_.high_water + options_.chunk_bytes + 64);
  EXPECT_FALSE(done.has_value());
  size_t max_pending = 0;
  ASSERT_TRUE(Drive([&] {
    max_pending = std::max(max_pending, out_->pending_bytes());
    return ends_.count(7) > 0;
  }));
  EXPECT_LE(max_pending, options_.high_water + options_.chunk_bytes + 64);
  ASSERT_TRUE(done.has_value());
  EXPECT_TRUE(done->ok());
  EXPECT_EQ(data_[7], data);
  EXPECT_EQ(ends_[7].size, data.size());
  EXPECT_EQ(ends_[7].hash, ContentHash::Of(data));
  EXPECT_EQ(pump.active(), 0u);
}

TEST_F(ChunkPumpTest, EmptyFileIsJustAnEnd) {
  MakeFile("empty", 0, 0);
  ChunkPump pump(clock_, options_);
  pump.set_stream(out_.get());
  pump.Add(1, Open("empty"), MessageType::kGetChunk, MessageType::kGetEnd,
           [](Status) {});
  ASSERT_TRUE(Drive([&] { return ends_.count(1) > 0; }));
  EXPECT_EQ(ends_[1].size, 0u);
  EXPECT_EQ(ends_[1].hash, ContentHash::Of(""));
}

TEST_F(ChunkPumpTest, FilesAreInterleaved) {
  const std::string a = MakeFile("a", 500 << 10, 2);
  const std::string b = MakeFile("b", 500 << 10, 3);
  ChunkPump pump(clock_, options_);
  pump.set_stream(out_.get());
  pump.Add(1, Open("a"), MessageType::kGetChunk, MessageType::kGetEnd,
           [](Status) {});
  pump.Add(2, Open("b"), MessageType::kGetChunk, MessageType::kGetEnd,
           [](Status) {});
  ASSERT_TRUE(Drive([&] { return ends_.size() == 2; }));
  EXPECT_EQ(data_[1], a);
  EXPECT_EQ(data_[2], b);
  // Round robin: b's first chunk comes before a's last.
  auto first_b = std::find(order_.begin(), order_.end(), 2u);
  auto last_a = std::find(order_.rbegin(), order_.rend(), 1u).base();
  EXPECT_LT(first_b, last_a);
}

TEST_F(ChunkPumpTest, CancelStopsOneTransferWithoutCallback) {
  MakeFile("a", 1 << 20, 4);
  const std::string b = MakeFile("b", 100, 5);
  ChunkPump pump(clock_, options_);
  pump.set_stream(out_.get());
  bool a_done = false;
  pump.Add(1, Open("a"), MessageType::kGetChunk, MessageType::kGetEnd,
           [&](Status) { a_done = true; });
  pump.Cancel(1);
  pump.Add(2, Open("b"), MessageType::kGetChunk, MessageType::kGetEnd,
           [](Status) {});
  ASSERT_TRUE(Drive([&] { return ends_.count(2) > 0; }));
  EXPECT_FALSE(a_done);
  EXPECT_EQ(ends_.count(1), 0u);
  EXPECT_EQ(data_[2], b);
}

TEST_F(ChunkPumpTest, ReadErrorSendsAnErrorFrame) {
  // Reading a directory fails with EISDIR.
  const int fd =
      ::open(dir_.path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  ChunkPump pump(clock_, options_);
  pump.set_stream(out_.get());
  std::optional<Status> done;
  pump.Add(9, fd, MessageType::kPutChunk, MessageType::kPutEnd,
           [&](Status s) { done = s; });
  ASSERT_TRUE(done.has_value());
  EXPECT_FALSE(done->ok());
  ASSERT_TRUE(Drive([&] { return errors_.count(9) > 0; }));
  EXPECT_THAT(errors_[9], ::testing::HasSubstr("reading the file"));
}

}  // namespace
}  // namespace gs
