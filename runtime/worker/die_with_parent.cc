#include "runtime/worker/die_with_parent.h"

#include <signal.h>
#include <unistd.h>

#ifdef __linux__
#include <sys/prctl.h>
#endif

namespace gs {

bool DieWithParent() {
#ifdef __linux__
  // The parent may die between the exec and the prctl: the worker is then
  // someone else's child. Not "is init the parent?": under a launcher that
  // makes a pid namespace (bwrap --unshare-pid) the parent is pid 1.
  const pid_t parent = ::getppid();
  if (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) return true;  // best effort
  return ::getppid() == parent;
#else
  return true;
#endif
}

}  // namespace gs
