// `gsdeploy probe`: contact every host through its adapter, count the
// attempt and whether it answered (paper 004 eq. 1-2), and measure what the
// ranking needs: round trip, cores, memory, load, bandwidth (a timed
// transfer, for hosts that do not share the master's files) and, for batch
// hosts, the expected queue wait.
//
// Probing (ProbeHosts) touches no history; RecordProbeResults writes what
// it found. Each host is probed on its own thread with its own io_context
// and clock, so hosts are probed in parallel and a host whose Connect()
// hangs is abandoned at its deadline instead of blocking the others.
#ifndef GSRT_RUNTIME_DEPLOY_DEPLOY_PROBE_H_
#define GSRT_RUNTIME_DEPLOY_DEPLOY_PROBE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "adapters/adapter.h"
#include "runtime/base/clock.h"
#include "runtime/config/config.h"
#include "runtime/deploy/deploy_context.h"
#include "runtime/history/history.h"

namespace gs {

struct ProbeOptions {
  // Seconds Connect() may take. A host that takes longer, or whose
  // Connect() fails, has not answered. Default: 30.
  Seconds connect_timeout = 30;
  // Seconds Probe() may take, separately the further round-trip samples
  // together, and the timed transfers together. Default: 30.
  Seconds probe_timeout = 30;
  // Bytes of the first test file put on hosts that do not share the
  // master's files, to time the transfer (bandwidth); later ones double
  // up to 16 times this until the rate is stable (probe_measures.h); 0
  // measures no bandwidth. Default: 4 MiB.
  uint64_t transfer_bytes = uint64_t{4} << 20;
  // Hosts probed at once. Default: 8.
  int parallel = 8;
  // Seconds beyond connect_timeout + 3 * probe_timeout after which a host
  // whose adapter has not returned is reported as not answering and its
  // thread abandoned. Default: 10.
  Seconds grace = 10;
  // Master-side directory for the test file; "" means $TMPDIR or /tmp.
  std::string scratch_dir;
};

enum class ProbeState {
  kAnswered,     // Connect() succeeded in time
  kNotAnswered,  // Connect() failed or took too long: counts in na
  kSkipped,      // no adapter for the host in this build: not recorded
};

struct HostProbeResult {
  std::string host;
  std::string adapter;  // the adapter's kind(); "" when none was made
  ProbeState state = ProbeState::kNotAnswered;
  Seconds time = 0;     // when the probe of this host began
  Seconds connect = 0;  // how long Connect() took
  bool shares_files = true;
  // What Probe() reported (bandwidth filled in from the transfer); nullopt
  // when the host did not answer or Probe() failed.
  std::optional<HostProbe> facts;
  // Why the host did not answer or was skipped, or what failed after it
  // answered; "" when all went well.
  std::string error;
  // Set when the host answered and then failed in a way that is the
  // host's or the network's fault (lost connection, no answer in time):
  // recorded as an infrastructure failure (distrust, eq. 3). Capability
  // gaps (an adapter that cannot be probed) are not charged.
  std::string failure_kind;  // "probe_failed", "transfer_failed"
};

// Probes `hosts` (at most options.parallel at once) and returns one result
// per host, in the same order.
std::vector<HostProbeResult> ProbeHosts(
    const std::vector<const HostConfig*>& hosts, const AdapterMaker& make,
    const ProbeOptions& options);

// Probes one host on the calling thread, with its own io_context. Connect()
// is not interrupted here; ProbeHosts bounds it.
HostProbeResult ProbeHost(const HostConfig& host, const AdapterMaker& make,
                          const ProbeOptions& options);

// Records `results`: the host (name, adapter, address), one availability
// check (source probe; answered or not, with the rtt), one host_probes row
// (the facts measured, or the error saying why none were), and an
// infrastructure failure when failure_kind is set. Skipped hosts are
// not recorded: a missing adapter is this build's limit, not the host's.
Status RecordProbeResults(History& history, const Config& config,
                          const std::vector<HostProbeResult>& results);

}  // namespace gs

#endif  // GSRT_RUNTIME_DEPLOY_DEPLOY_PROBE_H_
