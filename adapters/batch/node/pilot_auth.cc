#include "adapters/batch/node/pilot_auth.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "runtime/base/random_token.h"

namespace gs {

StatusOr<std::string> NewPilotToken() { return NewRandomToken(32); }

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
                    (c >= '0' && c <= '9') || c == '-' || c == '_' ||
                    c == '.' || c == '@';
    if (!ok) {
      return Status::PermissionDenied(
          "the pilot's name has a character "
          "other than letters, digits, '-_.@'");
    }
  }
  return std::string(pilot);
}

StatusOr<PilotRendezvous> ReadPilotRendezvous(const std::string& path) {
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
  std::string text(1024, '\0');
  const ssize_t n = ::read(fd, text.data(), text.size());
  const int err = errno;
  ::close(fd);
  if (n < 0) return Status::FromErrno("read token file " + path, err);
  text.resize(static_cast<size_t>(n));
  PilotRendezvous r;
  const size_t eol = text.find('\n');
  r.token = text.substr(0, eol);
  if (r.token.empty() || r.token.find(' ') != std::string::npos) {
    return Status::InvalidArgument("token file " + path +
                                   " does not hold one token");
  }
  // Later lines: "connect HOST:PORT", the master's address now.
  std::string_view rest =
      eol == std::string::npos ? "" : std::string_view(text).substr(eol + 1);
  while (!rest.empty()) {
    const size_t end = rest.find('\n');
    std::string_view line = rest.substr(0, end);
    rest = end == std::string_view::npos ? "" : rest.substr(end + 1);
    constexpr std::string_view kConnect = "connect ";
    if (line.starts_with(kConnect)) {
      r.connect = std::string(line.substr(kConnect.size()));
    }
  }
  return r;
}

StatusOr<std::string> ReadTokenFile(const std::string& path) {
  StatusOr<PilotRendezvous> r = ReadPilotRendezvous(path);
  if (!r.ok()) return r.status();
  return std::move(r->token);
}

Status WritePilotRendezvous(const std::string& path, const PilotRendezvous& r) {
  // A pilot may read it while a new master rewrites it: whole or not at all.
  const std::string temp = path + ".new." + std::to_string(::getpid());
  ::unlink(temp.c_str());
  const int fd =
      ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return Status::FromErrno("create token file " + path, errno);
  std::string text = r.token + "\n";
  if (!r.connect.empty()) text += "connect " + r.connect + "\n";
  const ssize_t n = ::write(fd, text.data(), text.size());
  const int err = errno;
  ::close(fd);
  if (n != static_cast<ssize_t>(text.size())) {
    ::unlink(temp.c_str());
    return Status::FromErrno("write token file " + path, err);
  }
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    const int e = errno;
    ::unlink(temp.c_str());
    return Status::FromErrno("replace token file " + path, e);
  }
  return Status::Ok();
}

Status WriteTokenFile(const std::string& path, std::string_view token) {
  return WritePilotRendezvous(path, PilotRendezvous{std::string(token), ""});
}

PilotName SplitPilotName(std::string_view name) {
  const size_t at = name.rfind('@');
  if (at == std::string_view::npos) return {std::string(name), ""};
  return {std::string(name.substr(0, at)), std::string(name.substr(at + 1))};
}

}  // namespace gs
