#include "runtime/dashboard/dashboard_server.h"

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <thread>

#include "runtime/base/random_token.h"
#include "runtime/dashboard/dashboard_assets.h"

namespace gs {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

namespace {

bool IsLoopback(const asio::ip::address& a) { return a.is_loopback(); }

// The query's token=... value ("" when absent).
std::string TokenOf(std::string_view target) {
  size_t q = target.find('?');
  if (q == std::string_view::npos) return "";
  std::string_view query = target.substr(q + 1);
  while (!query.empty()) {
    size_t amp = query.find('&');
    std::string_view pair = query.substr(0, amp);
    if (pair.substr(0, 6) == "token=") return std::string(pair.substr(6));
    if (amp == std::string_view::npos) break;
    query = query.substr(amp + 1);
  }
  return "";
}

}  // namespace

struct DashboardServer::Impl {
  asio::io_context io{1};
  tcp::acceptor acceptor{io};
  std::shared_ptr<const DashboardState> state;
  DashboardOptions options;
  std::string token;
  std::thread thread;

  void Accept();
  Seconds Now() const { return options.now ? options.now() : 0; }
};

namespace {

// One browser connection: a request, then either one response or, for
// /events, a stream of snapshots until the browser goes away.
class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket socket, DashboardServer::Impl* server)
      : stream_(std::move(socket)), timer_(server->io), server_(server) {}

  void Read() {
    stream_.expires_after(std::chrono::seconds(30));
    http::async_read(stream_, buffer_, request_,
                     [self = shared_from_this()](beast::error_code ec, size_t) {
                       if (!ec) self->Route();
                     });
  }

 private:
  void Route() {
    const std::string target(request_.target());
    if (!server_->token.empty() && TokenOf(target) != server_->token) {
      return Reply(http::status::forbidden, "text/plain",
                   "a token is needed: use the URL gsrt printed at start\n");
    }
    std::string_view path(target);
    path = path.substr(0, path.find('?'));
    if (path == "/state") {
      return Reply(http::status::ok, "application/json",
                   server_->state->SnapshotJson(server_->Now()));
    }
    if (path == "/events") return StartEvents();
    if (const DashboardAsset* a = FindDashboardAsset(path)) {
      std::string body(a->body);
      if (a->content_type.starts_with("text/html")) InlineState(&body);
      return Reply(http::status::ok, a->content_type, std::move(body));
    }
    Reply(http::status::not_found, "text/plain", "not found\n");
  }

  // The page carries the snapshot of the moment (rendered before the load
  // ends); "</" is escaped so no text in it can close the script.
  void InlineState(std::string* page) {
    const std::string marker = "<!--gsrt:initial-state-->";
    size_t at = page->find(marker);
    if (at == std::string::npos) return;
    std::string json = server_->state->SnapshotJson(server_->Now());
    for (size_t p = json.find("</"); p != std::string::npos;
         p = json.find("</", p + 3)) {
      json.replace(p, 2, "<\\/");
    }
    page->replace(at, marker.size(),
                  "<script>window.gsrtInitial = " + json + ";</script>");
  }

  void Reply(http::status status, std::string_view type, std::string body) {
    auto res = std::make_shared<http::response<http::string_body>>(
        status, request_.version());
    res->set(http::field::content_type, type);
    res->set(http::field::cache_control, "no-store");
    res->keep_alive(false);
    res->body() = std::move(body);
    res->prepare_payload();
    stream_.expires_after(std::chrono::seconds(30));
    http::async_write(
        stream_, *res,
        [self = shared_from_this(), res](beast::error_code, size_t) {
          beast::error_code ignored;
          self->stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
        });
  }

  void StartEvents() {
    std::string head =
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
        "Cache-Control: no-store\r\nConnection: keep-alive\r\n\r\n"
        // A browser that lost the stream (the next run of the master
        // serves the same address) asks again soon.
        "retry: 500\n\n";
    Send(std::move(head));
  }

  // Writes `data` unless a write is still under way (a slow browser gets
  // the next snapshot instead of a queue).
  void Send(std::string data) {
    if (writing_) return;
    writing_ = true;
    out_ = std::move(data);
    stream_.expires_after(std::chrono::seconds(60));
    asio::async_write(
        stream_.socket(), asio::buffer(out_),
        [self = shared_from_this()](beast::error_code ec, size_t) {
          self->writing_ = false;
          if (ec) return;  // the browser went away
          self->Tick();
        });
  }

  void Tick() {
    timer_.expires_after(std::chrono::milliseconds(
        static_cast<int>(server_->options.interval * 1000)));
    timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
      if (ec) return;
      const uint64_t v = self->server_->state->version();
      if (v == self->sent_version_ && self->sent_once_) return self->Tick();
      self->sent_version_ = v;
      self->sent_once_ = true;
      self->Send(
          "data: " + self->server_->state->SnapshotJson(self->server_->Now()) +
          "\n\n");
    });
  }

  beast::tcp_stream stream_;
  asio::steady_timer timer_;
  DashboardServer::Impl* server_;
  beast::flat_buffer buffer_;
  http::request<http::string_body> request_;
  std::string out_;
  bool writing_ = false;
  bool sent_once_ = false;
  uint64_t sent_version_ = 0;
};

}  // namespace

void DashboardServer::Impl::Accept() {
  acceptor.async_accept([this](beast::error_code ec, tcp::socket socket) {
    if (ec == asio::error::operation_aborted) return;
    if (!ec) std::make_shared<Session>(std::move(socket), this)->Read();
    Accept();
  });
}

StatusOr<DashboardOptions> ParseDashboardAddress(const std::string& text,
                                                 const std::string& what) {
  const std::string usage =
      what + " is '" + text +
      "'; it must be HOST:PORT, e.g. 127.0.0.1:8787 (PORT 0: any free port)";
  size_t colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0) {
    return Status::InvalidArgument(usage);
  }
  DashboardOptions o;
  o.host = text.substr(0, colon);
  if (o.host.size() > 2 && o.host.front() == '[' && o.host.back() == ']') {
    o.host = o.host.substr(1, o.host.size() - 2);
  }
  try {
    size_t used = 0;
    int port = std::stoi(text.substr(colon + 1), &used);
    if (used != text.size() - colon - 1 || port < 0 || port > 65535) {
      return Status::InvalidArgument(usage);
    }
    o.port = static_cast<uint16_t>(port);
  } catch (const std::exception&) {
    return Status::InvalidArgument(usage);
  }
  return o;
}

StatusOr<std::unique_ptr<DashboardServer>> DashboardServer::Start(
    std::shared_ptr<const DashboardState> state, DashboardOptions options) {
  auto impl = std::make_unique<Impl>();
  impl->state = std::move(state);
  impl->options = std::move(options);
  beast::error_code ec;
  auto address = asio::ip::make_address(impl->options.host, ec);
  if (ec) {
    // A name: resolve it (localhost, a host name of this machine).
    tcp::resolver resolver(impl->io);
    auto found = resolver.resolve(impl->options.host, "", ec);
    if (ec || found.empty()) {
      return Status::InvalidArgument("dashboard address '" +
                                     impl->options.host +
                                     "' is not an address of this machine");
    }
    address = found.begin()->endpoint().address();
  }
  if (!IsLoopback(address)) {
    auto token = NewRandomToken(16);
    if (!token.ok()) {
      return Status::Unavailable("no token for the dashboard on " +
                                 impl->options.host + ": " +
                                 token.status().message());
    }
    impl->token = *std::move(token);
  }
  tcp::endpoint endpoint(address, impl->options.port);
  impl->acceptor.open(endpoint.protocol(), ec);
  if (!ec)
    impl->acceptor.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) impl->acceptor.bind(endpoint, ec);
  if (!ec) impl->acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) {
    return Status::Unavailable(
        "cannot serve the dashboard on " + impl->options.host + ":" +
        std::to_string(impl->options.port) + ": " + ec.message() +
        " (GSRT_DASHBOARD or runtime.dashboard)");
  }
  impl->Accept();
  Impl* raw = impl.get();
  impl->thread = std::thread([raw] { raw->io.run(); });
  return std::unique_ptr<DashboardServer>(new DashboardServer(std::move(impl)));
}

DashboardServer::DashboardServer(std::unique_ptr<Impl> impl)
    : impl_(std::move(impl)) {}

DashboardServer::~DashboardServer() {
  impl_->io.stop();
  if (impl_->thread.joinable()) impl_->thread.join();
}

uint16_t DashboardServer::port() const {
  return impl_->acceptor.local_endpoint().port();
}

std::string DashboardServer::url() const {
  auto ep = impl_->acceptor.local_endpoint();
  std::string host = ep.address().to_string();
  if (ep.address().is_v6()) host = "[" + host + "]";
  std::string url = "http://" + host + ":" + std::to_string(ep.port()) + "/";
  if (!impl_->token.empty()) url += "?token=" + impl_->token;
  return url;
}

}  // namespace gs
