// How `gsdeploy setup` puts the programs a run needs on one host and checks
// that they start there (early failure detection). Each adapter kind that
// can be set up has its own installer (local_installer.h,
// ssh_installer.h); runtime/hosts makes the right one for a host.
#ifndef GSRT_ADAPTERS_HOST_INSTALLER_H_
#define GSRT_ADAPTERS_HOST_INSTALLER_H_

#include <string>

#include "runtime/base/status.h"

namespace gs {

// What a program's check found.
struct ProgramCheck {
  bool uploaded = false;  // a copy was put on the host (missing/different)
  std::string version;    // the first line `PROGRAM --version` printed
};

class HostInstaller {
 public:
  virtual ~HostInstaller() = default;
  // Puts the master's `local` at `host_path` when it is missing there or
  // different, makes it executable, and checks that it starts.
  virtual StatusOr<ProgramCheck> Install(const std::string& local,
                                         const std::string& host_path) = 0;
  // Checks that the program at `host_path` (already there: shared files)
  // exists and starts (`host_path --version` exits 0).
  virtual StatusOr<ProgramCheck> Check(const std::string& host_path) = 0;
};

}  // namespace gs

#endif  // GSRT_ADAPTERS_HOST_INSTALLER_H_
