// What a short remote command costs on the test hosts now, as the unit of
// the ssh tests' bounds (header-only, test code only). Most of it is sshd
// starting a session and the login shell, which on a slow or loaded machine
// takes many times what it takes elsewhere; fixed bounds would then test
// the machine rather than gsrt.
#ifndef GSRT_TESTS_SUPPORT_SSH_COMMAND_COST_H_
#define GSRT_TESTS_SUPPORT_SSH_COMMAND_COST_H_

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "adapters/ssh/ssh_remote.h"
#include "adapters/ssh/ssh_session.h"
#include "runtime/base/clock.h"

namespace gs::testing {

// Seconds for `true` on an open session: the slower of two runs (the
// first may pay for a cold cache, the second for a busy moment); -1 if the
// command fails.
inline double CommandCost(SshSession& session) {
  double slowest = 0;
  for (int i = 0; i < 2; ++i) {
    const auto start = std::chrono::steady_clock::now();
    auto r = RunCommand(session, {"true"});
    if (!r.ok() || r->exit_code != 0) return -1;
    slowest = std::max(slowest, std::chrono::duration<double>(
                                    std::chrono::steady_clock::now() - start)
                                    .count());
  }
  std::printf("[ measure ] one remote command on %s: %.0f ms\n",
              session.describe().c_str(), slowest * 1000);
  return slowest;
}

// A bound for `commands` started together on one host: should the host
// start them one after another, the last one ends after about `commands`
// times the cost; twice that for the load to vary, and never below
// `floor`.
inline Seconds BoundFor(int commands, double cost, Seconds floor = 30) {
  return std::max(floor, 2.0 * commands * cost);
}

inline std::chrono::milliseconds AsDuration(Seconds s) {
  return std::chrono::milliseconds(static_cast<long>(s * 1000));
}

}  // namespace gs::testing

#endif  // GSRT_TESTS_SUPPORT_SSH_COMMAND_COST_H_
