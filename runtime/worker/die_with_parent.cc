#include "runtime/worker/die_with_parent.h"

#include <signal.h>
#include <unistd.h>

#ifdef __linux__
#include <sys/prctl.h>
#endif

namespace gs {

bool DieWithParent() {
#ifdef __linux__
  if (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) return true;  // best effort
  // The parent may have died between the exec and the prctl.
  return ::getppid() != 1;
#else
  return true;
#endif
}

}  // namespace gs
