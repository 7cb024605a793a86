#include "adapters/ssh/ssh_target.h"

namespace gs {

SshTarget SshTarget::FromHostConfig(const HostConfig& host) {
  SshTarget t;
  t.name = host.name;
  t.address = host.address;
  t.port = host.port;
  t.user = host.user;
  t.identity = host.identity;
  t.known_hosts = host.known_hosts;
  t.host_key_check = host.host_key_check;
  return t;
}

std::string SshTarget::Describe() const {
  const std::string where = address + ":" + std::to_string(port);
  if (name.empty() || name == address) return "host " + where;
  return "host " + name + " (" + where + ")";
}

}  // namespace gs
