// The one-node Slurm cluster of tests/testbed/slurm.sh, shared by every
// test process of a build (its directory is GSRT_SLURM_DIR in the build
// tree). The first use in a process starts it if it is not running (the
// script takes a lock, so parallel tests start it once) and exports
// SLURM_CONF; ctest stops it after the last Slurm test (fixture
// `slurm`, tests/CMakeLists.txt).
#ifndef GSRT_TESTS_SUPPORT_SLURM_TESTBED_H_
#define GSRT_TESTS_SUPPORT_SLURM_TESTBED_H_

#include <string>

namespace gs {

// "" when the cluster is up and SLURM_CONF points at it; otherwise the
// start script's output. Never skips: callers fail on an error.
const std::string& EnsureSlurmTestbed();

// The testbed's directory (holds etc/slurm.conf, logs).
std::string SlurmTestbedDir();

}  // namespace gs

#endif  // GSRT_TESTS_SUPPORT_SLURM_TESTBED_H_
