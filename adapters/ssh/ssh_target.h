// Where and how to reach one ssh host: the connection settings of a
// `hosts:` entry (runtime/jobs/host_config.h) plus timeouts.
#ifndef GSRT_ADAPTERS_SSH_SSH_TARGET_H_
#define GSRT_ADAPTERS_SSH_SSH_TARGET_H_

#include <string>

#include "runtime/base/clock.h"
#include "runtime/jobs/host_config.h"

namespace gs {

struct SshTarget {
  // The host's name in messages ("node1"); "" names it by address.
  std::string name;
  // Host name or IP address to connect to. Required.
  std::string address;
  int port = 22;
  // Remote user. "" means the local user name (libssh's default).
  std::string user;
  // Private key file (never passphrase-protected: gsrt asks for no
  // secrets). "" tries ssh-agent, then ~/.ssh/id_ed25519, id_ecdsa, id_rsa.
  std::string identity;
  // The known_hosts file host keys are checked against (and where
  // accept-new records them). Required: there is no implicit default here;
  // the config layer fills in ~/.ssh/known_hosts.
  std::string known_hosts;
  HostKeyCheck host_key_check = HostKeyCheck::kStrict;
  // Bound on Connect: TCP connection, ssh handshake and authentication.
  Seconds connect_timeout = 10;
  // Seconds between keepalive requests once connected; 0 turns them off.
  Seconds keepalive_interval = 15;
  // The connection counts as lost after this many intervals in a row with
  // nothing received from the host, each starting with a keepalive request
  // (OpenSSH's ServerAliveCountMax).
  int keepalive_count_max = 3;

  // The ssh settings of a config host (timeouts keep their defaults).
  static SshTarget FromHostConfig(const HostConfig& host);

  // "host node1 (127.0.0.2:2222)", or "host 127.0.0.2:2222" without name.
  std::string Describe() const;
};

}  // namespace gs

#endif  // GSRT_ADAPTERS_SSH_SSH_TARGET_H_
