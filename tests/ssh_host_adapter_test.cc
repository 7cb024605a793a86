// The ssh adapter against real OpenSSH servers on 127.0.0.x, on what the
// adapter conformance suite cannot show with one host: hosts share the
// engine's io_context, and setting one up must not starve another.
#include "adapters/ssh/ssh_host_adapter.h"

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <chrono>
#include <optional>

#include "adapters/ssh/ssh_remote.h"
#include "adapters/ssh/ssh_session.h"
#include "runtime/base/asio_clock.h"
#include "tests/support/run_until.h"
#include "tests/support/sshd_testbed.h"
#include "tests/support/temp_dir.h"

namespace gs {
namespace {

using ::gs::testing::Sshd;

static auto* const kSshd = ::gs::testing::SshdEnvironment::Register(2);

// The master's agent heartbeat: both ends give the other up after three
// silent intervals.
constexpr Seconds kHeartbeat = 1;

SshHostOptions OptionsFor(int host, const std::string& workdir) {
  SshTarget target = Sshd().Target(host);
  SshHostOptions options;
  options.host.name = target.name;
  options.host.adapters = {AdapterKind::kSsh};
  options.host.address = target.address;
  options.host.port = target.port;
  options.host.identity = target.identity;
  options.host.known_hosts = target.known_hosts;
  options.host.slots = 1;
  options.host.workdir = workdir;
  options.host.shared_fs = true;
  options.agent_program = GSRT_AGENT;
  options.worker = GSRT_TEST_WORKER;
  options.heartbeat = kHeartbeat;
  return options;
}

// The engine connects its hosts one after another on its own thread before
// the io_context's thread starts; a host's setup runs blocking remote
// commands (install, --version), which on a slow host take seconds. The
// agents of the hosts connected before must go on exchanging heartbeats
// meanwhile, or both ends give each other up.
TEST(SshHostAdapterTest, AConnectedAgentSurvivesALongSetupStepOfAnotherHost) {
  boost::asio::io_context io;
  AsioClock clock(io);
  TempDir work;
  SshHostAdapter first(io, clock, OptionsFor(1, work / "node1"));
  ASSERT_TRUE(first.Connect().ok());

  // A setup step on the next host that outlasts three heartbeats.
  auto next = SshSession::Connect(io, clock, Sshd().Target(2));
  ASSERT_TRUE(next.ok()) << next.status().ToString();
  RunOptions slow;
  slow.timeout = 60;
  const auto start = std::chrono::steady_clock::now();
  auto step = RunCommand(**next, {"sleep", "5"}, slow);
  ASSERT_TRUE(step.ok()) << step.status().ToString();
  ASSERT_GT(std::chrono::steady_clock::now() - start,
            std::chrono::duration<double>(3 * kHeartbeat));

  EXPECT_TRUE(first.connected());
  std::optional<StatusOr<HostProbe>> probe;
  first.Probe([&](StatusOr<HostProbe> p) { probe = std::move(p); });
  ASSERT_TRUE(RunUntil(io, [&] { return probe.has_value(); }));
  EXPECT_TRUE(probe->ok()) << probe->status().ToString();
  first.Shutdown();
}

}  // namespace
}  // namespace gs
