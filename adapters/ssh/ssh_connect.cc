#include "adapters/ssh/ssh_connect.h"

#include <libssh/libssh.h>
#include <sys/stat.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>

#include "adapters/ssh/known_hosts.h"
#include "adapters/ssh/ssh_text.h"

namespace gs {
namespace {

using SteadyClock = std::chrono::steady_clock;

// Frees the session unless released.
class SessionGuard {
 public:
  explicit SessionGuard(ssh_session s) : s_(s) {}
  ~SessionGuard() {
    if (s_ == nullptr) return;
    if (ssh_is_connected(s_)) ssh_disconnect(s_);
    ssh_free(s_);
  }
  ssh_session release() {
    ssh_session s = s_;
    s_ = nullptr;
    return s;
  }

 private:
  ssh_session s_;
};

// Gives libssh's next blocking step what is left of the overall bound.
void SetRemaining(ssh_session s, SteadyClock::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::microseconds>(
      deadline - SteadyClock::now());
  long usec = std::max<long>(left.count(), 1000);
  long sec = usec / 1000000;
  long rest = usec % 1000000;
  ssh_options_set(s, SSH_OPTIONS_TIMEOUT, &sec);
  ssh_options_set(s, SSH_OPTIONS_TIMEOUT_USEC, &rest);
}

Status SetOptions(ssh_session s, const SshTarget& t) {
  const int verbosity = SSH_LOG_NOLOG;
  const bool no_config = false;
  const int strict = 1;   // libssh must never accept an unknown key itself
  const int nodelay = 1;  // agent messages are small; do not delay them
  const unsigned int port = static_cast<unsigned int>(t.port);
  bool ok =
      ssh_options_set(s, SSH_OPTIONS_LOG_VERBOSITY, &verbosity) == 0 &&
      // Only the settings gsrt was given: no ~/.ssh/config.
      ssh_options_set(s, SSH_OPTIONS_PROCESS_CONFIG, &no_config) == 0 &&
      ssh_options_set(s, SSH_OPTIONS_HOST, t.address.c_str()) == 0 &&
      ssh_options_set(s, SSH_OPTIONS_PORT, &port) == 0 &&
      ssh_options_set(s, SSH_OPTIONS_KNOWNHOSTS, t.known_hosts.c_str()) == 0 &&
      // The check is against target.known_hosts alone.
      ssh_options_set(s, SSH_OPTIONS_GLOBAL_KNOWNHOSTS, "/dev/null") == 0 &&
      ssh_options_set(s, SSH_OPTIONS_STRICTHOSTKEYCHECK, &strict) == 0 &&
      ssh_options_set(s, SSH_OPTIONS_NODELAY, &nodelay) == 0;
  if (ok && !t.user.empty()) {
    ok = ssh_options_set(s, SSH_OPTIONS_USER, t.user.c_str()) == 0;
  }
  if (!ok) {
    return Status::InvalidArgument(t.Describe() +
                                   ": bad ssh settings: " + ssh_get_error(s));
  }
  return Status::Ok();
}

Status ConnectError(const SshTarget& t, ssh_session s) {
  const std::string err = ssh_get_error(s);
  const std::string where = t.Describe();
  if (err.find("Timeout") != std::string::npos) {
    return Status::TimedOut(
        where + " did not complete the ssh handshake within " +
        SecondsText(t.connect_timeout) +
        ": check that the address and port are those of an ssh server and "
        "that no firewall drops the traffic (libssh: " +
        err + ")");
  }
  if (err.find("refused") != std::string::npos) {
    return Status::Unavailable(
        where + " refused the connection: nothing listens on port " +
        std::to_string(t.port) + " of " + t.address +
        "; is sshd running there, and is `port:` right?");
  }
  return Status::Unavailable("cannot connect to " + where + ": " + err);
}

// The offered key's type name and "SHA256:..." fingerprint.
Status DescribeServerKey(ssh_session s, ssh_key* key, HostKeyFacts* f) {
  if (ssh_get_server_publickey(s, key) != SSH_OK) {
    return Status::Internal(
        f->host + ": no server key after the handshake: " + ssh_get_error(s));
  }
  f->key_type = ssh_key_type_to_char(ssh_key_type(*key));
  unsigned char* hash = nullptr;
  size_t len = 0;
  if (ssh_get_publickey_hash(*key, SSH_PUBLICKEY_HASH_SHA256, &hash, &len) !=
      0) {
    return Status::Internal(f->host + ": cannot hash the server key");
  }
  char* fp = ssh_get_fingerprint_hash(SSH_PUBLICKEY_HASH_SHA256, hash, len);
  f->fingerprint = fp != nullptr ? fp : "SHA256:?";
  ssh_string_free_char(fp);
  ssh_clean_pubkey_hash(&hash);
  return Status::Ok();
}

Status CheckHostKey(ssh_session s, const SshTarget& t) {
  HostKeyFacts f;
  f.host = t.Describe();
  f.address = t.address;
  f.port = t.port;
  f.known_hosts = t.known_hosts;
  ssh_key key = nullptr;
  Status described = DescribeServerKey(s, &key, &f);
  struct KeyFree {
    ssh_key k;
    ~KeyFree() { ssh_key_free(k); }
  } key_free{key};
  if (!described.ok()) return described;

  // Hosts connect at once (an engine's start): one at a time reads the
  // file and appends to it, so no new key is read half-written or lost.
  static std::mutex file_mu;
  std::lock_guard<std::mutex> file_lock(file_mu);
  HostKeyState state;
  std::ifstream in(t.known_hosts, std::ios::binary);
  if (!in) {
    const int err = errno;
    struct stat st;
    if (::stat(t.known_hosts.c_str(), &st) != 0 && errno == ENOENT) {
      state = HostKeyState::kNoFile;
    } else {
      state = HostKeyState::kError;
      f.detail = std::strerror(err);
    }
  } else {
    std::ostringstream text;
    text << in.rdbuf();
    state = ClassifyHostKey(text.str(), KnownHostsName(t.address, t.port), key,
                            &f.lines);
  }
  switch (DecideHostKey(state, t.host_key_check)) {
    case HostKeyAction::kAccept:
      return Status::Ok();
    case HostKeyAction::kRecord:
      if (ssh_session_update_known_hosts(s) != SSH_OK) {
        return Status::IoError("cannot record the " + f.key_type + " key " +
                               f.fingerprint + " of " + f.host + " in " +
                               t.known_hosts + ": " + ssh_get_error(s));
      }
      return Status::Ok();
    case HostKeyAction::kRefuse:
      break;
  }
  return HostKeyRefusal(state, t.host_key_check, f);
}

std::string UserOf(ssh_session s, const SshTarget& t) {
  if (!t.user.empty()) return t.user;
  char* user = nullptr;
  std::string out = "?";
  if (ssh_options_get(s, SSH_OPTIONS_USER, &user) == SSH_OK && user) {
    out = user;
    ssh_string_free_char(user);
  }
  return out;
}

Status Authenticate(ssh_session s, const SshTarget& t) {
  const std::string user = UserOf(s, t);
  const std::string who = "user " + user;
  int rc;
  std::string with;
  if (!t.identity.empty()) {
    with = "identity " + t.identity;
    struct stat st;
    if (::stat(t.identity.c_str(), &st) != 0) {
      return Status::NotFound("the identity file " + t.identity + " for " +
                              t.Describe() +
                              " does not exist: " + std::strerror(errno));
    }
    ssh_key key = nullptr;
    // No passphrase and no callback: gsrt never asks for secrets.
    if (ssh_pki_import_privkey_file(t.identity.c_str(), nullptr, nullptr,
                                    nullptr, &key) != SSH_OK) {
      return Status::PermissionDenied(
          "cannot load the private key " + t.identity + " for " + t.Describe() +
          ": not a private key, or protected by a passphrase. gsrt never "
          "asks for passphrases: load the key into ssh-agent (ssh-add " +
          t.identity + ") and leave `identity` empty");
    }
    rc = ssh_userauth_publickey(s, nullptr, key);
    ssh_key_free(key);
  } else {
    with =
        "ssh-agent and the default keys (~/.ssh/id_ed25519, id_ecdsa, "
        "id_rsa)";
    rc = ssh_userauth_publickey_auto(s, nullptr, nullptr);
  }
  switch (rc) {
    case SSH_AUTH_SUCCESS:
      return Status::Ok();
    case SSH_AUTH_DENIED:
      return Status::PermissionDenied(
          t.Describe() + " refused the public key of " + who + " (tried " +
          with + "). Add the matching public key" +
          (t.identity.empty() ? "" : " (" + t.identity + ".pub)") + " to ~" +
          user +
          "/.ssh/authorized_keys on the host, or set "
          "`identity`/`user` right. gsrt uses public keys only, never "
          "passwords");
    case SSH_AUTH_PARTIAL:
      return Status::PermissionDenied(
          t.Describe() + " accepted the key of " + who +
          " but asks for a further method (password, one-time code); gsrt "
          "uses public keys only");
    default:
      return Status::Unavailable("authentication of " + who + " on " +
                                 t.Describe() + " with " + with +
                                 " failed: " + ssh_get_error(s));
  }
}

}  // namespace

StatusOr<ssh_session> OpenSshConnection(const SshTarget& t) {
  if (t.address.empty()) {
    return Status::InvalidArgument(t.Describe() + ": no address to connect to");
  }
  if (t.port < 1 || t.port > 65535) {
    return Status::InvalidArgument(t.Describe() + ": port " +
                                   std::to_string(t.port) + " out of range");
  }
  if (t.known_hosts.empty()) {
    return Status::InvalidArgument(
        t.Describe() + ": no known_hosts file given to check its host key");
  }
  if (!(t.connect_timeout > 0)) {
    return Status::InvalidArgument(t.Describe() +
                                   ": the connect timeout must be positive");
  }
  const auto start = SteadyClock::now();
  const auto deadline =
      start + std::chrono::duration_cast<SteadyClock::duration>(
                  std::chrono::duration<double>(t.connect_timeout));
  ssh_session s = ssh_new();
  if (s == nullptr) return Status::Internal("ssh_new failed (out of memory)");
  SessionGuard guard(s);
  if (Status st = SetOptions(s, t); !st.ok()) return st;

  SetRemaining(s, deadline);
  if (ssh_connect(s) != SSH_OK) {
    return ConnectError(t, s);
  }
  if (Status st = CheckHostKey(s, t); !st.ok()) return st;
  SetRemaining(s, deadline);
  if (Status st = Authenticate(s, t); !st.ok()) {
    if (SteadyClock::now() >= deadline) {
      return Status::TimedOut(t.Describe() +
                              ": no answer to authentication "
                              "within " +
                              SecondsText(t.connect_timeout) + " (" +
                              st.message() + ")");
    }
    return st;
  }
  return guard.release();
}

}  // namespace gs
