#include "adapters/agent/memory_stream.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>

namespace gs {

struct MemoryStream::Link {
  explicit Link(boost::asio::io_context& io) : io(io) {}
  struct End {
    DataCallback on_data;
    ClosedCallback on_closed;
    bool started = false;
    bool closed = false;      // this end closed or was told it is closed
    bool close_sent = false;  // Close() here: tell the other end after data
    bool stalled = false;
    bool scheduled = false;  // a delivery of `outbox` is posted
    std::string outbox;      // written here, not yet delivered
  };
  boost::asio::io_context& io;
  End ends[2];

  void Schedule(const std::shared_ptr<Link>& self, int from) {
    End& e = ends[from];
    if (e.scheduled) return;
    e.scheduled = true;
    boost::asio::post(io, [self, from] { self->Deliver(from); });
  }

  void Deliver(int from) {
    End& src = ends[from];
    End& dst = ends[1 - from];
    src.scheduled = false;
    if (src.stalled || !dst.started || dst.closed) return;
    if (!src.outbox.empty()) {
      std::string bytes = std::move(src.outbox);
      src.outbox.clear();
      dst.on_data(bytes);
    }
    if (src.close_sent && src.outbox.empty() && !dst.closed) {
      dst.closed = true;
      ClosedCallback done = std::move(dst.on_closed);
      if (done) done(Status::Ok());
    }
  }
};

std::pair<std::unique_ptr<MemoryStream>, std::unique_ptr<MemoryStream>>
MemoryStream::Pair(boost::asio::io_context& io) {
  auto link = std::make_shared<Link>(io);
  return {std::unique_ptr<MemoryStream>(new MemoryStream(link, 0)),
          std::unique_ptr<MemoryStream>(new MemoryStream(link, 1))};
}

MemoryStream::MemoryStream(std::shared_ptr<Link> link, int side)
    : link_(std::move(link)), side_(side) {}

MemoryStream::~MemoryStream() { Close(); }

void MemoryStream::Start(DataCallback on_data, ClosedCallback on_closed) {
  Link::End& e = link_->ends[side_];
  e.on_data = std::move(on_data);
  e.on_closed = std::move(on_closed);
  e.started = true;
  // What the other end wrote before this Start is delivered now.
  link_->Schedule(link_, 1 - side_);
}

void MemoryStream::Write(std::string_view bytes) {
  Link::End& e = link_->ends[side_];
  if (e.closed || e.close_sent) return;
  e.outbox.append(bytes);
  link_->Schedule(link_, side_);
}

size_t MemoryStream::pending_bytes() const {
  return link_->ends[side_].outbox.size();
}

void MemoryStream::Close() {
  Link::End& e = link_->ends[side_];
  if (e.closed) return;
  e.closed = true;
  e.close_sent = true;
  e.on_data = nullptr;
  e.on_closed = nullptr;
  link_->Schedule(link_, side_);
}

void MemoryStream::Stall(bool stalled) {
  link_->ends[side_].stalled = stalled;
  if (!stalled) link_->Schedule(link_, side_);
}

void MemoryStream::Break(Status why) {
  auto link = link_;
  boost::asio::post(link->io, [link, why] {
    for (Link::End& e : link->ends) {
      if (e.closed) continue;
      e.closed = true;
      e.outbox.clear();
      ClosedCallback done = std::move(e.on_closed);
      e.on_data = nullptr;
      if (done) done(why);
    }
  });
}

}  // namespace gs
