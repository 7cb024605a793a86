// The master's TCP listener for pilot jobs: accepts connections, reads the
// greeting line (pilot_auth.h) within a time limit, and hands the
// connection on as a ByteStream only when it carries this run's token.
// Anything else (no greeting, a wrong token, too long a line, bytes after
// the greeting before the master spoke) is closed and counted.
#ifndef GSRT_ADAPTERS_BATCH_PILOT_LISTENER_H_
#define GSRT_ADAPTERS_BATCH_PILOT_LISTENER_H_

#include <functional>
#include <memory>
#include <string>

#include "adapters/transport/byte_stream.h"
#include "runtime/base/clock.h"
#include "runtime/base/status.h"

namespace boost::asio {
class io_context;
}  // namespace boost::asio

namespace gs {

struct PilotListenerOptions {
  // Address to listen on; pilots on other nodes need one they can reach.
  std::string address = "127.0.0.1";
  // 0 picks a free port.
  int port = 0;
  // This run's secret (required).
  std::string token;
  // Seconds a new connection has to send its greeting.
  Seconds greeting_timeout = 10;
};

class PilotListener {
 public:
  // A pilot that authenticated, by the name it gave, and its stream.
  using PilotCallback =
      std::function<void(std::string pilot, std::unique_ptr<ByteStream>)>;

  // Binds and starts accepting on `io`. Errors name the address.
  static StatusOr<std::unique_ptr<PilotListener>> Listen(
      boost::asio::io_context& io, Clock& clock, PilotListenerOptions options,
      PilotCallback on_pilot);
  ~PilotListener();

  PilotListener(const PilotListener&) = delete;
  PilotListener& operator=(const PilotListener&) = delete;

  // The bound port (the real one when options.port was 0).
  int port() const;
  const std::string& address() const;
  // Connections closed for lack of a valid greeting, and why the last was.
  int refused() const;
  const std::string& last_refusal() const;
  // Stops accepting; connections still greeting are closed.
  void Close();

 private:
  struct State;
  explicit PilotListener(std::shared_ptr<State> state);
  std::shared_ptr<State> state_;
};

}  // namespace gs

#endif  // GSRT_ADAPTERS_BATCH_PILOT_LISTENER_H_
