#include "adapters/ssh/known_hosts.h"

#include <libssh/libssh.h>

#include <string>

namespace gs {
namespace {

std::string LineList(const std::vector<KnownHostsLine>& lines) {
  std::string out;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (i > 0) out += (i + 1 == lines.size()) ? " and " : ", ";
    out += std::to_string(lines[i].line);
  }
  return out;
}

std::string KeyscanCommand(const HostKeyFacts& f) {
  std::string cmd = "ssh-keyscan ";
  if (f.port != 22) cmd += "-p " + std::to_string(f.port) + " ";
  return cmd + f.address + " >> " + f.known_hosts;
}

std::string RemoveCommand(const HostKeyFacts& f) {
  return "ssh-keygen -R '" + KnownHostsName(f.address, f.port) + "' -f " +
         f.known_hosts;
}

std::string Offered(const HostKeyFacts& f) {
  return f.key_type + " key " + f.fingerprint;
}

}  // namespace

std::string KnownHostsName(std::string_view address, int port) {
  if (port == 22) return std::string(address);
  return "[" + std::string(address) + "]:" + std::to_string(port);
}

namespace {

// Calls fn(line number, entry) for each line of `text` naming `name`.
template <typename Fn>
void ForEachHostLine(std::string_view text, std::string_view name, Fn fn) {
  const std::string host(name);
  int number = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string line(text.substr(pos, end - pos));
    pos = end + 1;
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    size_t start = line.find_first_not_of(" \t");
    if (start == std::string::npos) continue;
    line.erase(0, start);
    if (line[0] == '#' || line[0] == '@') continue;
    ssh_knownhosts_entry* entry = nullptr;
    // SSH_AGAIN means "another host"; SSH_ERROR a line libssh cannot read
    // (it cannot be the host's key then, so it does not count).
    int rc = ssh_known_hosts_parse_line(host.c_str(), line.c_str(), &entry);
    if (rc == SSH_OK && entry != nullptr) fn(number, entry);
    ssh_knownhosts_entry_free(entry);
  }
}

}  // namespace

std::vector<KnownHostsLine> FindKnownHostsLines(std::string_view text,
                                                std::string_view name) {
  std::vector<KnownHostsLine> found;
  ForEachHostLine(text, name, [&](int number, ssh_knownhosts_entry* e) {
    KnownHostsLine hit{number, ""};
    if (e->publickey != nullptr) {
      hit.key_type = ssh_key_type_to_char(ssh_key_type(e->publickey));
    }
    found.push_back(hit);
  });
  return found;
}

HostKeyState ClassifyHostKey(std::string_view text, std::string_view name,
                             ssh_key offered,
                             std::vector<KnownHostsLine>* lines) {
  bool equal = false;
  bool same_type = false;
  lines->clear();
  ForEachHostLine(text, name, [&](int number, ssh_knownhosts_entry* e) {
    KnownHostsLine hit{number, ""};
    if (e->publickey != nullptr) {
      hit.key_type = ssh_key_type_to_char(ssh_key_type(e->publickey));
      same_type =
          same_type || ssh_key_type(e->publickey) == ssh_key_type(offered);
      equal =
          equal || ssh_key_cmp(e->publickey, offered, SSH_KEY_CMP_PUBLIC) == 0;
    }
    lines->push_back(hit);
  });
  if (equal) return HostKeyState::kKnown;
  if (lines->empty()) return HostKeyState::kUnknown;
  return same_type ? HostKeyState::kChanged : HostKeyState::kOtherType;
}

HostKeyAction DecideHostKey(HostKeyState state, HostKeyCheck check) {
  switch (state) {
    case HostKeyState::kKnown:
      return HostKeyAction::kAccept;
    case HostKeyState::kUnknown:
    case HostKeyState::kNoFile:
      return check == HostKeyCheck::kAcceptNew ? HostKeyAction::kRecord
                                               : HostKeyAction::kRefuse;
    case HostKeyState::kChanged:
    case HostKeyState::kOtherType:
    case HostKeyState::kError:
      return HostKeyAction::kRefuse;
  }
  return HostKeyAction::kRefuse;
}

Status HostKeyRefusal(HostKeyState state, HostKeyCheck check,
                      const HostKeyFacts& f) {
  const std::string lines = LineList(f.lines);
  const std::string plural = f.lines.size() == 1 ? "line " : "lines ";
  switch (state) {
    case HostKeyState::kKnown:
      break;
    case HostKeyState::kUnknown:
    case HostKeyState::kNoFile:
      return Status::PermissionDenied(
          f.host + " offers an unknown " + Offered(f) + ": " +
          (state == HostKeyState::kNoFile
               ? "the known_hosts file " + f.known_hosts + " does not exist"
               : "it is not in the known_hosts file " + f.known_hosts) +
          " and host_key_check is " + std::string(HostKeyCheckName(check)) +
          ". Check the fingerprint with the host's administrator (on the "
          "host: ssh-keygen -lf /etc/ssh/ssh_host_*_key.pub), then add it "
          "with `" +
          KeyscanCommand(f) +
          "`, or set host_key_check: accept-new to record it on the first "
          "connection");
    case HostKeyState::kChanged:
      return Status::PermissionDenied(
          "the host key of " + f.host + " CHANGED: it now offers an " +
          Offered(f) + ", but " + plural + lines + " of " + f.known_hosts +
          " record" + (f.lines.size() == 1 ? "s" : "") +
          " a different key. This may be an attack (someone between you "
          "and the host); gsrt refuses it under every host_key_check. If "
          "the host was reinstalled, check the new fingerprint and remove "
          "the old " +
          plural + lines + " of " + f.known_hosts + " (`" + RemoveCommand(f) +
          "`), then connect again");
    case HostKeyState::kOtherType: {
      std::string known;
      for (const auto& l : f.lines) {
        if (!known.empty()) known += ", ";
        known += l.key_type + " (line " + std::to_string(l.line) + ")";
      }
      return Status::PermissionDenied(
          f.host + " offers an " + Offered(f) + ", but " + f.known_hosts +
          " knows it only by keys of another type: " + known +
          ". gsrt treats this as a CHANGED key and refuses it. If the "
          "host's keys really changed, check the new fingerprint, remove "
          "the old " +
          plural + lines + " (`" + RemoveCommand(f) + "`) and connect again");
    }
    case HostKeyState::kError:
      return Status::PermissionDenied(
          "cannot check the host key of " + f.host + " (" + Offered(f) +
          ") against " + f.known_hosts + ": " + f.detail +
          ". Make the file readable, or fix its malformed lines");
  }
  return Status::Internal("HostKeyRefusal called for an accepted key");
}

}  // namespace gs
