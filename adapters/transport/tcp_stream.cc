#include "adapters/transport/tcp_stream.h"

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>

namespace gs {

namespace {

std::string Errno(const char* what) {
  return std::string(what) + ": " + std::strerror(errno);
}

// One non-blocking connect bounded by `timeout`; the fd back in blocking
// mode on success.
Status ConnectOne(int fd, const addrinfo* ai, Seconds timeout) {
  const int flags = ::fcntl(fd, F_GETFL);
  ::fcntl(fd, F_SETFL, flags | O_NONBLOCK);
  if (::connect(fd, ai->ai_addr, ai->ai_addrlen) != 0) {
    if (errno != EINPROGRESS) return Status::Unavailable(Errno("connect"));
    pollfd p{fd, POLLOUT, 0};
    const int ms = static_cast<int>(std::ceil(timeout * 1000));
    int n;
    do {
      n = ::poll(&p, 1, ms);
    } while (n < 0 && errno == EINTR);
    if (n == 0) return Status::TimedOut("connect timed out");
    int err = 0;
    socklen_t len = sizeof err;
    ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len);
    if (n < 0 || err != 0) {
      return Status::Unavailable(std::string("connect: ") +
                                 std::strerror(err != 0 ? err : errno));
    }
  }
  ::fcntl(fd, F_SETFL, flags);
  return Status::Ok();
}

}  // namespace

StatusOr<HostPort> ParseHostPort(std::string_view text, int default_port) {
  auto bad = [&] {
    return Status::InvalidArgument(
        "expected HOST:PORT (e.g. 127.0.0.1:0), "
        "got '" +
        std::string(text) + "'");
  };
  HostPort out;
  std::string_view port;
  if (!text.empty() && text.front() == '[') {
    const size_t close = text.find(']');
    if (close == std::string_view::npos) return bad();
    out.host = std::string(text.substr(1, close - 1));
    std::string_view rest = text.substr(close + 1);
    if (!rest.empty()) {
      if (rest.front() != ':') return bad();
      port = rest.substr(1);
    }
  } else if (const size_t colon = text.rfind(':');
             colon != std::string_view::npos) {
    if (text.find(':') != colon) return bad();  // bare IPv6 needs [ ]
    out.host = std::string(text.substr(0, colon));
    port = text.substr(colon + 1);
  } else {
    out.host = std::string(text);
  }
  if (out.host.empty()) return bad();
  if (port.data() == nullptr) {
    if (default_port < 0) return bad();
    out.port = default_port;
    return out;
  }
  if (port.empty() || port.size() > 5) return bad();
  int value = 0;
  for (char c : port) {
    if (c < '0' || c > '9') return bad();
    value = value * 10 + (c - '0');
  }
  if (value > 65535) return bad();
  out.port = value;
  return out;
}

StatusOr<int> ConnectTcp(const std::string& host, int port, Seconds timeout) {
  const std::string where = host + ":" + std::to_string(port);
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* list = nullptr;
  const std::string service = std::to_string(port);
  if (int rc = ::getaddrinfo(host.c_str(), service.c_str(), &hints, &list);
      rc != 0) {
    return Status::Unavailable("cannot resolve " + host + ": " +
                               ::gai_strerror(rc));
  }
  Status last = Status::Unavailable("no address");
  for (addrinfo* ai = list; ai != nullptr; ai = ai->ai_next) {
    const int fd = ::socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC,
                            ai->ai_protocol);
    if (fd < 0) {
      last = Status::Unavailable(Errno("socket"));
      continue;
    }
    last = ConnectOne(fd, ai, timeout);
    if (last.ok()) {
      ::freeaddrinfo(list);
      int one = 1;
      ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      return fd;
    }
    ::close(fd);
  }
  ::freeaddrinfo(list);
  return last.WithContext("cannot connect to " + where);
}

Status WriteAll(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) continue;
      return Status::Unavailable(Errno("send"));
    }
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return Status::Ok();
}

StatusOr<std::unique_ptr<PipeStream>> AdoptTcpSocket(
    boost::asio::io_context& io, int fd, std::string peer) {
  int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  const int write_fd = ::fcntl(fd, F_DUPFD_CLOEXEC, 3);
  if (write_fd < 0) {
    const Status s = Status::IoError(Errno("dup"));
    ::close(fd);
    return s;
  }
  return PipeStream::Adopt(io, fd, write_fd, std::move(peer));
}

}  // namespace gs
