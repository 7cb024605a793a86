// Setting up an ssh host: one session for all its programs; a program is
// uploaded when its SHA-256 differs and checked with --version over ssh.
#ifndef GSRT_ADAPTERS_SSH_SSH_INSTALLER_H_
#define GSRT_ADAPTERS_SSH_SSH_INSTALLER_H_

#include <memory>

#include "adapters/host_installer.h"
#include "runtime/base/clock.h"
#include "runtime/jobs/host_config.h"

namespace gs {

// Connects to `host` (bounded by its connect timeout; failing, the host is
// unreachable). `timeout` bounds each upload and --version run.
StatusOr<std::unique_ptr<HostInstaller>> ConnectSshInstaller(
    const HostConfig& host, Seconds timeout);

}  // namespace gs

#endif  // GSRT_ADAPTERS_SSH_SSH_INSTALLER_H_
