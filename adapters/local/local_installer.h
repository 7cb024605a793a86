// Setting up this machine (hosts of adapter `local`): Check runs the
// program here; Install copies it (under a temporary name, then renamed)
// when the bytes differ.
#ifndef GSRT_ADAPTERS_LOCAL_LOCAL_INSTALLER_H_
#define GSRT_ADAPTERS_LOCAL_LOCAL_INSTALLER_H_

#include <memory>

#include "adapters/host_installer.h"
#include "runtime/base/clock.h"

namespace gs {

// `timeout` bounds each --version run.
std::unique_ptr<HostInstaller> MakeLocalInstaller(Seconds timeout);

}  // namespace gs

#endif  // GSRT_ADAPTERS_LOCAL_LOCAL_INSTALLER_H_
