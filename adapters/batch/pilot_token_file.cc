#include "adapters/batch/pilot_token_file.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <filesystem>

namespace gs {

std::string PilotTokenFileName(std::string_view host, pid_t pid) {
  return "token." + std::string(host) + "." + std::to_string(pid);
}

std::vector<std::string> StalePilotTokenFiles(
    const std::vector<std::string>& names, std::string_view host,
    const std::function<bool(pid_t)>& alive) {
  const std::string prefix = "token." + std::string(host) + ".";
  std::vector<std::string> stale;
  for (const std::string& name : names) {
    if (!name.starts_with(prefix)) continue;
    const std::string_view digits =
        std::string_view(name).substr(prefix.size());
    pid_t pid = 0;
    auto [end, ec] =
        std::from_chars(digits.data(), digits.data() + digits.size(), pid);
    // The host name may itself hold dots: only "prefix DIGITS" is ours.
    if (ec != std::errc() || end != digits.data() + digits.size() || pid <= 0)
      continue;
    if (!alive(pid)) stale.push_back(name);
  }
  return stale;
}

namespace {

std::vector<std::string> StaleIn(const std::string& dir,
                                 std::string_view host) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    names.push_back(e.path().filename().string());
  }
  auto alive = [](pid_t pid) { return ::kill(pid, 0) == 0 || errno != ESRCH; };
  return StalePilotTokenFiles(names, host, alive);
}

}  // namespace

void RemoveStalePilotTokenFiles(const std::string& dir, std::string_view host) {
  for (const std::string& name : StaleIn(dir, host)) {
    ::unlink((dir + "/" + name).c_str());
  }
}

std::vector<std::string> TakeOverStalePilotTokenFiles(
    const std::string& dir, std::string_view host, const PilotRendezvous& now) {
  std::vector<std::string> taken;
  for (const std::string& name : StaleIn(dir, host)) {
    const std::string path = dir + "/" + name;
    if (WritePilotRendezvous(path, now).ok()) taken.push_back(path);
  }
  return taken;
}

}  // namespace gs
