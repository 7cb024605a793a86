// Two connected in-process ByteStreams on one io_context, for tests of the
// agent protocol without processes: bytes written to one end reach the
// other end's on_data from the io_context (never inside Write), in order.
#ifndef GSRT_ADAPTERS_AGENT_MEMORY_STREAM_H_
#define GSRT_ADAPTERS_AGENT_MEMORY_STREAM_H_

#include <memory>
#include <string>
#include <utility>

#include "adapters/transport/byte_stream.h"

namespace boost::asio {
class io_context;
}  // namespace boost::asio

namespace gs {

class MemoryStream : public ByteStream {
 public:
  static std::pair<std::unique_ptr<MemoryStream>, std::unique_ptr<MemoryStream>>
  Pair(boost::asio::io_context& io);

  ~MemoryStream() override;

  void Start(DataCallback on_data, ClosedCallback on_closed) override;
  void Write(std::string_view bytes) override;
  // Bytes written here and not yet delivered to the other end.
  size_t pending_bytes() const override;
  // What was written before is still delivered; then the other end's
  // on_closed gets OK.
  void Close() override;

  // Test switches. Stall: bytes written here stay queued (a hung peer)
  // until Stall(false). Break: both ends close; each side's on_closed gets
  // `why` (a lost connection).
  void Stall(bool stalled);
  void Break(Status why);

 private:
  struct Link;
  MemoryStream(std::shared_ptr<Link> link, int side);
  std::shared_ptr<Link> link_;
  int side_;
};

}  // namespace gs

#endif  // GSRT_ADAPTERS_AGENT_MEMORY_STREAM_H_
