// The blocking part of SshSession::Connect: TCP connection and handshake,
// host key check, public-key authentication. Internal to adapters/ssh.
#ifndef GSRT_ADAPTERS_SSH_SSH_CONNECT_H_
#define GSRT_ADAPTERS_SSH_SSH_CONNECT_H_

#include "adapters/ssh/ssh_target.h"
#include "runtime/base/status.h"

typedef struct ssh_session_struct* ssh_session;

namespace gs {

// A connected, authenticated libssh session (still in blocking mode), or
// why there is none. The caller owns it (ssh_disconnect + ssh_free).
StatusOr<ssh_session> OpenSshConnection(const SshTarget& target);

}  // namespace gs

#endif  // GSRT_ADAPTERS_SSH_SSH_CONNECT_H_
