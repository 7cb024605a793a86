#include "adapters/batch/pilot_auth.h"

#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace gs {

StatusOr<std::string> NewPilotToken() {
  unsigned char bytes[32];
  size_t got = 0;
  while (got < sizeof bytes) {
    const ssize_t n = ::getrandom(bytes + got, sizeof bytes - got, 0);
    if (n < 0) {
      if (errno == EINTR) continue;
      return Status::FromErrno("getrandom", errno);
    }
    got += static_cast<size_t>(n);
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string token;
  for (unsigned char b : bytes) {
    token += kHex[b >> 4];
    token += kHex[b & 15];
  }
  return token;
}

std::string PilotGreeting(std::string_view token, std::string_view pilot) {
  std::string line(kPilotGreeting);
  line += ' ';
  line += token;
  line += ' ';
  line += pilot;
  line += '\n';
  return line;
}

StatusOr<std::string> CheckPilotGreeting(std::string_view line,
                                         std::string_view token) {
  const Status refused = Status::PermissionDenied(
      "the connection did not present this run's pilot token");
  if (!line.starts_with(kPilotGreeting) || token.empty()) return refused;
  line.remove_prefix(kPilotGreeting.size());
  if (line.empty() || line.front() != ' ') return refused;
  line.remove_prefix(1);
  const size_t space = line.find(' ');
  if (space == std::string_view::npos) return refused;
  std::string_view given = line.substr(0, space);
  std::string_view pilot = line.substr(space + 1);
  // Constant time in the token's content: no early exit on a mismatch.
  unsigned diff = given.size() != token.size();
  for (size_t i = 0; i < token.size(); ++i) {
    diff |= static_cast<unsigned char>(token[i]) ^
            static_cast<unsigned char>(i < given.size() ? given[i] : 0);
  }
  if (diff != 0) return refused;
  if (pilot.empty()) {
    return Status::PermissionDenied("the pilot's greeting has no name");
  }
  for (char c : pilot) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                    (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
    if (!ok) {
      return Status::PermissionDenied(
          "the pilot's name has a character "
          "other than letters, digits, '-_.'");
    }
  }
  return std::string(pilot);
}

StatusOr<std::string> ReadTokenFile(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::FromErrno("open token file " + path, errno);
  struct stat st {};
  if (::fstat(fd, &st) != 0 || (st.st_mode & 077) != 0) {
    ::close(fd);
    return Status::PermissionDenied(
        "token file " + path +
        " may be read by others; it must have mode 0600 (chmod 600 " + path +
        ")");
  }
  std::string token(256, '\0');
  const ssize_t n = ::read(fd, token.data(), token.size());
  const int err = errno;
  ::close(fd);
  if (n < 0) return Status::FromErrno("read token file " + path, err);
  token.resize(static_cast<size_t>(n));
  if (!token.empty() && token.back() == '\n') token.pop_back();
  if (token.empty() || token.find_first_of(" \n") != std::string::npos) {
    return Status::InvalidArgument("token file " + path +
                                   " does not hold one token");
  }
  return token;
}

Status WriteTokenFile(const std::string& path, std::string_view token) {
  ::unlink(path.c_str());
  const int fd =
      ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return Status::FromErrno("create token file " + path, errno);
  std::string text(token);
  text += '\n';
  const ssize_t n = ::write(fd, text.data(), text.size());
  const int err = errno;
  ::close(fd);
  if (n != static_cast<ssize_t>(text.size())) {
    return Status::FromErrno("write token file " + path, err);
  }
  return Status::Ok();
}

}  // namespace gs
