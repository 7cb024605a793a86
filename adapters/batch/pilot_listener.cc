#include "adapters/batch/pilot_listener.h"

#include <array>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <set>

#include "adapters/batch/node/pilot_auth.h"
#include "adapters/transport/tcp_stream.h"

namespace gs {

namespace asio = boost::asio;
using asio::ip::tcp;

namespace {

// One accepted connection that has not greeted yet.
struct Greeting {
  explicit Greeting(tcp::socket s) : socket(std::move(s)) {}
  tcp::socket socket;
  std::string line;
  std::array<char, 256> buffer{};
  std::unique_ptr<Timer> timer;
  std::string peer;
};

}  // namespace

struct PilotListener::State : std::enable_shared_from_this<State> {
  State(asio::io_context& io, Clock& clock)
      : io(io), clock(clock), acceptor(io) {}

  asio::io_context& io;
  Clock& clock;
  PilotListenerOptions options;
  PilotCallback on_pilot;
  tcp::acceptor acceptor;
  int port = 0;
  int refused = 0;
  std::string last_refusal;
  bool closed = false;
  std::set<std::shared_ptr<Greeting>> greeting;

  void Accept() {
    acceptor.async_accept(
        [self = shared_from_this()](const boost::system::error_code& ec,
                                    tcp::socket socket) {
          if (self->closed) return;
          if (!ec) self->Greet(std::move(socket));
          if (ec == asio::error::operation_aborted) return;
          self->Accept();
        });
  }

  void Refuse(const std::shared_ptr<Greeting>& g, const std::string& why) {
    ++refused;
    last_refusal = g->peer + ": " + why;
    boost::system::error_code ignored;
    g->socket.close(ignored);
    if (g->timer) g->timer->Cancel();
    greeting.erase(g);
  }

  void Greet(tcp::socket socket) {
    auto g = std::make_shared<Greeting>(std::move(socket));
    boost::system::error_code ec;
    auto remote = g->socket.remote_endpoint(ec);
    g->peer =
        ec ? std::string("a connection")
           : remote.address().to_string() + ":" + std::to_string(remote.port());
    greeting.insert(g);
    std::weak_ptr<State> weak = shared_from_this();
    std::weak_ptr<Greeting> weak_g = g;
    g->timer = clock.After(options.greeting_timeout, [weak, weak_g] {
      auto self = weak.lock();
      auto g = weak_g.lock();
      if (self && g && self->greeting.count(g)) {
        self->Refuse(g, "sent no greeting in time");
      }
    });
    Read(g);
  }

  void Read(const std::shared_ptr<Greeting>& g) {
    g->socket.async_read_some(
        asio::buffer(g->buffer),
        [self = shared_from_this(), g](const boost::system::error_code& ec,
                                       size_t n) {
          if (self->closed || !self->greeting.count(g)) return;
          if (ec) return self->Refuse(g, "closed before greeting");
          g->line.append(g->buffer.data(), n);
          const size_t nl = g->line.find('\n');
          if (nl == std::string::npos) {
            if (g->line.size() >= kMaxGreetingBytes) {
              return self->Refuse(g, "greeting too long");
            }
            return self->Read(g);
          }
          // The agent waits for the master's HELLO: nothing may follow.
          if (nl + 1 != g->line.size()) {
            return self->Refuse(g, "sent data before the master spoke");
          }
          auto pilot = CheckPilotGreeting(
              std::string_view(g->line).substr(0, nl), self->options.token);
          if (!pilot.ok()) return self->Refuse(g, pilot.status().message());
          self->Admit(g, std::move(pilot).value());
        });
  }

  void Admit(const std::shared_ptr<Greeting>& g, std::string pilot) {
    g->timer->Cancel();
    greeting.erase(g);
    const int fd = g->socket.release();
    auto stream = AdoptTcpSocket(io, fd, "pilot '" + pilot + "'");
    if (!stream.ok()) {
      ++refused;
      last_refusal = stream.status().message();
      return;
    }
    on_pilot(std::move(pilot),
             std::unique_ptr<ByteStream>(std::move(stream).value()));
  }

  void Close() {
    if (closed) return;
    closed = true;
    boost::system::error_code ignored;
    acceptor.close(ignored);
    for (const auto& g : greeting) {
      if (g->timer) g->timer->Cancel();
      g->socket.close(ignored);
    }
    greeting.clear();
  }
};

PilotListener::PilotListener(std::shared_ptr<State> state)
    : state_(std::move(state)) {}

PilotListener::~PilotListener() { Close(); }

StatusOr<std::unique_ptr<PilotListener>> PilotListener::Listen(
    asio::io_context& io, Clock& clock, PilotListenerOptions options,
    PilotCallback on_pilot) {
  if (options.token.empty()) {
    return Status::InvalidArgument("a pilot listener needs a token");
  }
  const std::string where = "listening for pilots on " + options.address + ":" +
                            std::to_string(options.port);
  boost::system::error_code ec;
  auto address = asio::ip::make_address(options.address, ec);
  if (ec) {
    return Status::InvalidArgument(where + ": '" + options.address +
                                   "' is not an IP address");
  }
  auto state = std::make_shared<State>(io, clock);
  tcp::endpoint endpoint(address, static_cast<unsigned short>(options.port));
  state->acceptor.open(endpoint.protocol(), ec);
  if (!ec) state->acceptor.set_option(tcp::acceptor::reuse_address(true), ec);
  if (!ec) state->acceptor.bind(endpoint, ec);
  if (!ec)
    state->acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) return Status::Unavailable(where + ": " + ec.message());
  state->port = state->acceptor.local_endpoint().port();
  state->options = std::move(options);
  state->on_pilot = std::move(on_pilot);
  state->Accept();
  return std::unique_ptr<PilotListener>(new PilotListener(std::move(state)));
}

int PilotListener::port() const { return state_->port; }
const std::string& PilotListener::address() const {
  return state_->options.address;
}
int PilotListener::refused() const { return state_->refused; }
const std::string& PilotListener::last_refusal() const {
  return state_->last_refusal;
}
void PilotListener::Close() { state_->Close(); }

}  // namespace gs
