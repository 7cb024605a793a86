#include "runtime/deploy/deploy_probe.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>

#include "runtime/base/asio_clock.h"
#include "runtime/base/units.h"
#include "runtime/deploy/probe_measures.h"

namespace gs {

namespace {

// Runs `io` until `done` is true or `limit` seconds of `clock` passed;
// false on timeout.
template <typename Pred>
bool RunFor(boost::asio::io_context& io, Clock& clock, Seconds limit,
            Pred done) {
  bool expired = false;
  std::unique_ptr<Timer> timer = clock.After(limit, [&] { expired = true; });
  while (!done() && !expired) {
    io.restart();
    io.run_one();
  }
  return done();
}

// Failures after the host answered that are the host's or the network's
// fault. A capability the adapter lacks (FailedPrecondition) or a refused
// path (InvalidArgument) says nothing about the host's reliability.
bool ChargesHost(const Status& s) {
  return s.code() == Status::Code::kUnavailable ||
         s.code() == Status::Code::kTimedOut ||
         s.code() == Status::Code::kIoError;
}

// A master-side file of `bytes` pseudo-random bytes (so a compressing link
// does not look faster than it is); "" and `error` set on failure.
std::string WriteTestFile(const ProbeOptions& options, uint64_t bytes,
                          std::string* error) {
  std::string dir = options.scratch_dir;
  if (dir.empty()) {
    const char* tmp = std::getenv("TMPDIR");
    dir = tmp != nullptr && *tmp != '\0' ? tmp : "/tmp";
  }
  std::string path = dir + "/gsdeploy-probe-XXXXXX";
  const int fd = ::mkstemp(path.data());
  if (fd < 0) {
    *error = Status::FromErrno("cannot create a test file in " + dir, errno)
                 .message();
    return "";
  }
  uint64_t x = 0x9e3779b97f4a7c15ull ^ static_cast<uint64_t>(::getpid());
  std::string block(1 << 16, '\0');
  for (uint64_t left = bytes; left > 0;) {
    for (size_t i = 0; i + 8 <= block.size(); i += 8) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      std::memcpy(&block[i], &x, 8);
    }
    const size_t n =
        static_cast<size_t>(std::min<uint64_t>(left, block.size()));
    if (::write(fd, block.data(), n) != static_cast<ssize_t>(n)) {
      *error = Status::FromErrno("cannot write the test file " + path, errno)
                   .message();
      ::close(fd);
      ::unlink(path.c_str());
      return "";
    }
    left -= n;
  }
  ::close(fd);
  return path;
}

// kRoundTrips round trips, the first being `facts`' own, all within
// probe_timeout: their median and spread replace its single sample. Stops
// at the first that fails or does not come in time.
void SampleRoundTrips(Adapter& adapter, boost::asio::io_context& io,
                      Clock& clock, const ProbeOptions& options,
                      HostProbe* facts) {
  std::vector<double> rtts = {facts->rtt};
  const Seconds deadline = clock.Now() + options.probe_timeout;  // for all
  while (rtts.size() < static_cast<size_t>(kRoundTrips)) {
    auto answer = std::make_shared<std::optional<StatusOr<HostProbe>>>();
    adapter.Probe([answer](StatusOr<HostProbe> p) { *answer = std::move(p); });
    if (!RunFor(io, clock, std::max<Seconds>(deadline - clock.Now(), 0),
                [&] { return answer->has_value(); }) ||
        !(*answer)->ok()) {
      break;
    }
    rtts.push_back((*answer)->value().rtt);
  }
  const Measure rtt = SummarizeSamples(std::move(rtts));
  facts->rtt = rtt.value;
  facts->rtt_spread = rtt.spread;
}

// One timed Put of a test file of `bytes`: its streaming time (the round
// trip taken off), or an error set on `result` and nullopt.
std::optional<Seconds> TimeOneTransfer(Adapter& adapter,
                                       boost::asio::io_context& io,
                                       Clock& clock,
                                       const ProbeOptions& options,
                                       uint64_t bytes, Seconds limit,
                                       HostProbeResult* result) {
  std::string error;
  const std::string local = WriteTestFile(options, bytes, &error);
  if (local.empty()) {
    result->error = "bandwidth not measured: " + error;
    return std::nullopt;
  }
  std::string dir = adapter.work_dir();
  const std::string name = local.substr(local.rfind('/') + 1);
  const std::string remote = dir.empty() ? name : dir + "/" + name;
  // Shared: an adapter may still answer after a timeout (at Shutdown).
  auto put = std::make_shared<std::optional<Status>>();
  const Seconds start = clock.Now();
  adapter.Put(local, remote, [put](Status s) { *put = std::move(s); });
  const bool in_time =
      RunFor(io, clock, limit, [&] { return put->has_value(); });
  const Seconds elapsed = clock.Now() - start;
  ::unlink(local.c_str());
  if (!in_time) {
    adapter.Remove(remote);  // whatever arrived of it
    result->error = "bandwidth not measured: the test transfer of " +
                    FormatBytes(static_cast<double>(bytes)) +
                    " took more than " + FormatDuration(limit);
    result->failure_kind = "transfer_failed";
    return std::nullopt;
  }
  const Status& done = **put;
  if (!done.ok()) {
    result->error = "bandwidth not measured: " + done.message();
    if (ChargesHost(done)) result->failure_kind = "transfer_failed";
    return std::nullopt;
  }
  adapter.Remove(remote);
  // Remove has no answer. A probe's round trip after it makes sure a
  // remote host handled it (in order) before the next transfer or Shutdown.
  auto synced = std::make_shared<bool>(false);
  adapter.Probe([synced](StatusOr<HostProbe>) { *synced = true; });
  RunFor(io, clock, std::min<Seconds>(options.probe_timeout, 5),
         [&] { return *synced; });
  // The transfer's own answer costs one round trip.
  return std::max(elapsed - result->facts->rtt, 1e-6);
}

// Timed transfers of growing size until the rate is stable
// (probe_measures.h), all within probe_timeout; sets facts->bandwidth and
// its spread, or result->error.
void MeasureBandwidth(Adapter& adapter, boost::asio::io_context& io,
                      Clock& clock, const ProbeOptions& options,
                      HostProbeResult* result) {
  const Seconds deadline = clock.Now() + options.probe_timeout;
  const uint64_t cap = 16 * options.transfer_bytes;
  std::vector<TransferSample> done;
  for (uint64_t bytes = options.transfer_bytes; bytes > 0;
       bytes = NextTransferBytes(done, cap)) {
    const Seconds left = deadline - clock.Now();
    // A later transfer that would not fit in the time left is not tried.
    if (!done.empty() &&
        left < 2 * static_cast<double>(bytes) / done.back().rate()) {
      break;
    }
    std::optional<Seconds> streaming =
        TimeOneTransfer(adapter, io, clock, options, bytes, left, result);
    if (!streaming) {
      // The error stays (a failing host is charged); what the earlier
      // transfers measured still counts.
      if (done.empty()) return;
      break;
    }
    done.push_back({bytes, *streaming});
  }
  const Measure bandwidth = BandwidthOf(done);
  result->facts->bandwidth = bandwidth.value;
  result->facts->bandwidth_spread = bandwidth.spread;
}

// The work of one host's thread, and its result once done.
struct ProbeTask {
  HostConfig host;
  AdapterMaker make;
  ProbeOptions options;
  std::mutex mu;
  std::condition_variable cv;
  bool finished = false;
  HostProbeResult result;
};

}  // namespace

HostProbeResult ProbeHost(const HostConfig& host, const AdapterMaker& make,
                          const ProbeOptions& options) {
  boost::asio::io_context io;
  AsioClock clock(io);
  HostProbeResult result;
  result.host = host.name;
  result.time = clock.Now();
  result.shares_files = SharesMasterFiles(host);
  StatusOr<std::unique_ptr<Adapter>> made = make(host, io, clock);
  if (!made.ok()) {
    result.state = ProbeState::kSkipped;
    result.error = made.status().message();
    return result;
  }
  std::unique_ptr<Adapter> adapter = std::move(made).value();
  result.adapter = std::string(adapter->kind());
  result.shares_files = adapter->shares_master_files();

  Status connected = adapter->Connect();
  result.connect = clock.Now() - result.time;
  if (!connected.ok()) {
    result.state = ProbeState::kNotAnswered;
    result.error = connected.message();
    return result;
  }
  if (result.connect > options.connect_timeout) {
    result.state = ProbeState::kNotAnswered;
    result.error = "connecting took " + FormatDuration(result.connect) +
                   ", more than the limit of " +
                   FormatDuration(options.connect_timeout);
    adapter->Shutdown();
    return result;
  }
  result.state = ProbeState::kAnswered;

  // Shared: an adapter may still answer after a timeout (at Shutdown).
  auto answer = std::make_shared<std::optional<StatusOr<HostProbe>>>();
  adapter->Probe([answer](StatusOr<HostProbe> p) { *answer = std::move(p); });
  const bool in_time = RunFor(io, clock, options.probe_timeout,
                              [&] { return answer->has_value(); });
  std::optional<StatusOr<HostProbe>>& probe = *answer;
  if (!in_time) {
    result.error = "connected, but the probe got no answer within " +
                   FormatDuration(options.probe_timeout);
    result.failure_kind = "probe_failed";
  } else if (!probe->ok()) {
    result.error = probe->status().message();
    if (ChargesHost(probe->status())) result.failure_kind = "probe_failed";
  } else {
    result.facts = probe->value();
    result.facts->bandwidth = 0;  // only what this probe measures below
    SampleRoundTrips(*adapter, io, clock, options, &*result.facts);
    if (!result.shares_files && options.transfer_bytes > 0) {
      MeasureBandwidth(*adapter, io, clock, options, &result);
    }
  }
  adapter->Shutdown();
  // Lets the adapter's last messages (Remove, goodbye) go out.
  io.restart();
  io.poll();
  return result;
}

std::vector<HostProbeResult> ProbeHosts(
    const std::vector<const HostConfig*>& hosts, const AdapterMaker& make,
    const ProbeOptions& options) {
  std::vector<HostProbeResult> results(hosts.size());
  // Connect, probe, round trips, transfers, and a grace period for
  // Shutdown.
  const auto budget = std::chrono::duration<double>(
      options.connect_timeout + 3 * options.probe_timeout + options.grace);
  const size_t parallel = static_cast<size_t>(std::max(1, options.parallel));
  for (size_t first = 0; first < hosts.size(); first += parallel) {
    const size_t last = std::min(hosts.size(), first + parallel);
    std::vector<std::shared_ptr<ProbeTask>> tasks;
    std::vector<std::thread> threads;
    const auto deadline = std::chrono::steady_clock::now() + budget;
    for (size_t i = first; i < last; ++i) {
      // The thread owns copies of everything it uses, so abandoning it at
      // the deadline leaves it nothing dangling.
      auto task = std::make_shared<ProbeTask>();
      task->host = *hosts[i];
      task->make = make;
      task->options = options;
      tasks.push_back(task);
      threads.emplace_back([task] {
        HostProbeResult r = ProbeHost(task->host, task->make, task->options);
        std::lock_guard<std::mutex> lock(task->mu);
        task->result = std::move(r);
        task->finished = true;
        task->cv.notify_all();
      });
    }
    for (size_t k = 0; k < tasks.size(); ++k) {
      ProbeTask& task = *tasks[k];
      std::unique_lock<std::mutex> lock(task.mu);
      if (task.cv.wait_until(lock, deadline, [&] { return task.finished; })) {
        results[first + k] = std::move(task.result);
        lock.unlock();
        threads[k].join();
        continue;
      }
      lock.unlock();
      threads[k].detach();
      HostProbeResult& r = results[first + k];
      r.host = task.host.name;
      r.state = ProbeState::kNotAnswered;
      r.shares_files = SharesMasterFiles(task.host);
      r.error = "no answer within " + FormatDuration(budget.count()) +
                " (the adapter's Connect() did not return)";
    }
  }
  return results;
}

Status RecordProbeResults(History& history, const Config& config,
                          const std::vector<HostProbeResult>& results) {
  for (const HostProbeResult& r : results) {
    if (r.state == ProbeState::kSkipped) continue;
    const HostConfig* host = config.FindHost(r.host);
    HostInfo info;
    info.name = r.host;
    info.adapter = !r.adapter.empty() ? r.adapter
                   : host != nullptr && !host->adapters.empty()
                       ? std::string(AdapterKindName(host->adapters.front()))
                       : "";
    info.address = host != nullptr ? host->address : "";
    if (Status s = history.RecordHost(info); !s.ok()) return s;

    HostCheck check;
    check.host = r.host;
    check.time = r.time;
    check.answered = r.state == ProbeState::kAnswered;
    check.source = CheckSource::kProbe;
    if (r.facts) check.rtt = r.facts->rtt;
    if (Status s = history.RecordHostCheck(check); !s.ok()) return s;

    HostProbeRecord p;
    p.host = r.host;
    p.time = r.time;
    p.source = CheckSource::kProbe;
    p.error = r.error;
    if (r.facts) {
      const HostProbe& f = *r.facts;
      p.rtt = f.rtt;
      p.rtt_spread = f.rtt_spread;
      if (f.cores > 0) p.cores = f.cores;
      if (f.memory_total > 0) p.memory_total = f.memory_total;
      if (f.memory_total > 0 || f.memory_available > 0) {
        p.memory_available = f.memory_available;
      }
      p.load1 = f.load1;
      if (f.bandwidth > 0) {
        p.bandwidth = f.bandwidth;
        p.bandwidth_spread = f.bandwidth_spread;
      }
      if (f.queue_wait >= 0) {
        p.queue_wait = f.queue_wait;
        p.queue_wait_basis = f.queue_wait_basis;
      }
    }
    if (Status s = history.RecordHostProbe(p); !s.ok()) return s;

    if (!r.failure_kind.empty()) {
      HostFailure failure;
      failure.host = r.host;
      failure.time = r.time;
      failure.kind = r.failure_kind;
      failure.detail = r.error;
      if (Status s = history.RecordHostFailure(failure); !s.ok()) return s;
    }
  }
  return history.Flush();
}

}  // namespace gs
