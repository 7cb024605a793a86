// The environment a host's programs start in (gsrt.yaml's `env`, `setup`
// and `launcher`; docs/sites.md): the wrapper each adapter puts around what
// it starts on the host (an agent, a pilot, a batch job, or for a local
// host a probe that reads the environment the setup leaves). Pure: builds
// argv, runs nothing. The launcher itself goes before each worker, where
// workers start (adapters/local/worker_launch.h); here it is only checked.
#ifndef GSRT_ADAPTERS_HOST_ENVIRONMENT_H_
#define GSRT_ADAPTERS_HOST_ENVIRONMENT_H_

#include <string>
#include <string_view>
#include <vector>

#include "runtime/base/clock.h"
#include "runtime/jobs/host_config.h"

namespace gs {

// Exit statuses of the wrapper that are not the program's own: a setup line
// failed; the launcher is not installed on the host.
inline constexpr int kSetupFailedExit = 113;
inline constexpr int kLauncherMissingExit = 114;
// A setup still running after this long is a failure of the host.
inline constexpr Seconds kSetupTimeout = 300;

// `then` started in `host`'s environment: `then` itself for a host without
// env, setup or launcher; else a /bin/sh script (a login shell, the user's
// own when it is sh-like, when there are setup lines) that exports `env`,
// runs each setup line with its stdout sent to stderr and stops at the
// first that fails (kSetupFailedExit, naming the host and the line on
// stderr), checks that the launcher's program is found
// (kLauncherMissingExit), then execs `then`. Nothing of `then` or of the
// names and values is ever parsed by the shell; the setup lines are shell
// text by design.
std::vector<std::string> InHostEnvironment(const std::string& host_name,
                                           const HostEnvironment& environment,
                                           std::vector<std::string> then);

// Whether `exit_code` of a wrapped program is the wrapper's own (a failed
// setup or a missing launcher): the host's failure, not the program's.
bool IsSetupFailure(int exit_code);

// "WHERE: its setup failed:" and the last lines of the wrapper's stderr
// that are not blank, for a wrapper that exited with IsSetupFailure();
// `where` names the host ("host 'node1'").
std::string DescribeSetupFailure(std::string_view where, int exit_code,
                                 std::string_view stderr_text);

}  // namespace gs

#endif  // GSRT_ADAPTERS_HOST_ENVIRONMENT_H_
