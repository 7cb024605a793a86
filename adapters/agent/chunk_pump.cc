#include "adapters/agent/chunk_pump.h"

#include <unistd.h>

#include <cerrno>
#include <utility>

namespace gs {

using agent::MessageType;

namespace {

agent::Message ChunkMessage(MessageType type, uint64_t id, std::string data) {
  if (type == MessageType::kPutChunk)
    return agent::PutChunk{id, std::move(data)};
  return agent::GetChunk{id, std::move(data)};
}

agent::Message EndMessage(MessageType type, uint64_t id, uint64_t size,
                          uint64_t hash) {
  if (type == MessageType::kPutEnd) return agent::PutEnd{id, size, hash};
  return agent::GetEnd{id, size, hash};
}

}  // namespace

ChunkPump::ChunkPump(Clock& clock, ChunkPumpOptions options)
    : clock_(clock), options_(options) {
  if (options_.chunk_bytes == 0) options_.chunk_bytes = agent::kChunkBytes;
}

ChunkPump::~ChunkPump() { Clear(); }

void ChunkPump::Add(uint64_t id, int fd, MessageType chunk_type,
                    MessageType end_type, DoneCallback done) {
  auto src = std::make_unique<Source>();
  src->id = id;
  src->fd = fd;
  src->chunk_type = chunk_type;
  src->end_type = end_type;
  src->done = std::move(done);
  sources_.push_back(std::move(src));
  Pump();
}

void ChunkPump::Cancel(uint64_t id) {
  for (auto it = sources_.begin(); it != sources_.end(); ++it) {
    if ((*it)->id == id) {
      ::close((*it)->fd);
      sources_.erase(it);
      return;
    }
  }
}

void ChunkPump::Clear() {
  for (auto& src : sources_) ::close(src->fd);
  sources_.clear();
  poll_timer_.reset();
}

bool ChunkPump::Step(Source& src) {
  buffer_.resize(options_.chunk_bytes);
  ssize_t n;
  do {
    n = ::read(src.fd, buffer_.data(), buffer_.size());
  } while (n < 0 && errno == EINTR);
  if (n < 0) {
    const Status s = Status::FromErrno("reading the file to send", errno);
    stream_->Write(agent::Encode(agent::Error{src.id, s.code(), s.message()}));
    src.done(s);
    return false;
  }
  if (n == 0) {
    stream_->Write(agent::Encode(
        EndMessage(src.end_type, src.id, src.hash.size(), src.hash.Digest())));
    src.done(Status::Ok());
    return false;
  }
  buffer_.resize(static_cast<size_t>(n));
  src.hash.Update(buffer_);
  stream_->Write(
      agent::Encode(ChunkMessage(src.chunk_type, src.id, std::move(buffer_))));
  buffer_ = std::string();
  return true;
}

void ChunkPump::Pump() {
  // `done` callbacks may Add() more; the outer loop picks those up.
  if (pumping_ || stream_ == nullptr) return;
  pumping_ = true;
  while (!sources_.empty() && stream_->pending_bytes() < options_.high_water) {
    std::unique_ptr<Source> src = std::move(sources_.front());
    sources_.pop_front();
    if (Step(*src)) {
      sources_.push_back(std::move(src));  // round robin
    } else {
      ::close(src->fd);
    }
    if (stream_ == nullptr) break;  // a callback cleared us
  }
  pumping_ = false;
  if (!sources_.empty() && stream_ != nullptr && !poll_timer_) {
    poll_timer_ = clock_.After(options_.poll, [this] {
      poll_timer_.reset();
      Pump();
    });
  }
}

}  // namespace gs
