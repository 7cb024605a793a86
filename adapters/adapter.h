// The adapter seam (GAT-style): one narrow interface through which the
// runtime runs jobs on a host, whatever the host is (local processes, ssh,
// a batch queue, a simulation). One Adapter object serves one host.
//
// Adapters never retry: retry budgets live in the runtime. Every callback
// runs on the engine's thread (the io_context the adapter was made with).
#ifndef GSRT_ADAPTERS_ADAPTER_H_
#define GSRT_ADAPTERS_ADAPTER_H_

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "adapters/job.h"
#include "runtime/base/status.h"

namespace gs {

// What a probe of a host found (gsdeploy probe, the grank policy).
struct HostProbe {
  Seconds rtt = 0;  // round trip of the check itself
  uint32_t cores = 0;
  uint64_t memory_total = 0;      // bytes
  uint64_t memory_available = 0;  // bytes
  double load1 = 0;               // 1-minute load average
  double bandwidth = 0;     // bytes/s of a timed transfer; 0 = not measured
  Seconds queue_wait = -1;  // expected wait of a batch queue; -1 = none
};

// How long one batch job waited in its queue (submitted -> started). Batch
// adapters learn these; the engine records them in the history.
struct QueueWaitSample {
  std::string partition;  // "" for the site's default
  Seconds submitted = 0;
  Seconds started = 0;
};

class Adapter {
 public:
  using DoneCallback = std::function<void(JobReport)>;

  virtual ~Adapter() = default;

  // "local", "ssh", "slurm", "pbs", "sim".
  virtual std::string_view kind() const = 0;

  // Makes the host usable (connect, start agents, check the worker).
  virtual Status Connect() = 0;

  // How many more jobs the host takes now.
  virtual int FreeSlots() const = 0;

  // False once the connection to the host is lost (until Connect()
  // succeeds again). Hosts without a connection are always connected.
  virtual bool connected() const { return true; }

  // Connects again after a loss, from the engine's thread. `done` fires
  // once. The default is a synchronous Connect().
  virtual void Reconnect(std::function<void(Status)> done) { done(Connect()); }

  // Liveness, for adapters that hear from their host on their own
  // (heartbeats): the clock time of the last message from the host, or -1
  // when the adapter has no such signal (then a connected host counts as
  // up). The runtime calls a host suspect when it is silent for longer than
  // heartbeat_interval() plus some slack, before the adapter gives it up.
  virtual Seconds last_heard() const { return -1; }
  virtual Seconds heartbeat_interval() const { return 0; }

  // Seconds a job submitted now is expected to wait before it starts (a
  // batch queue's wait, learnt from earlier jobs); 0 for hosts that start
  // jobs at once. The scheduler adds it to its predictions.
  virtual Seconds expected_start_delay() const { return 0; }

  // Queue waits seen since the last call (batch hosts), for the engine to
  // record; adapters never write the history themselves.
  virtual std::vector<QueueWaitSample> TakeQueueWaits() { return {}; }

  // Starts `spec`. `done` is called exactly once, later (never from inside
  // Submit), with the job's outcome.
  virtual void Submit(JobSpec spec, DoneCallback done) = 0;

  // Asks the job to stop; its `done` still fires once (with Cancelled if it
  // was stopped in time, otherwise with whatever it ended with).
  virtual void Cancel(JobId id) = 0;

  // Cancels what runs and releases the host. Pending `done` callbacks fire.
  virtual void Shutdown() = 0;

  // --- Data staging, for hosts that do not see the master's files. ---
  using StatusCallback = std::function<void(Status)>;

  // True when the host sees the master's files at the same paths (local
  // processes, a shared file system): no staging is needed.
  virtual bool shares_master_files() const { return true; }

  // The host's own directory for version files and job sandboxes (an
  // absolute path on the host).
  virtual std::string work_dir() const { return ""; }

  // Copies the master's file `master_path` to `host_path` on the host,
  // checked (size and hash) on arrival. `done` fires once, later.
  virtual void Put(std::string master_path, std::string host_path,
                   StatusCallback done) {
    done(Status::FailedPrecondition(std::string(kind()) +
                                    " adapter does not stage files"));
  }

  // Copies `host_path` on the host to `master_path` on the master's
  // machine (written under a temporary name, renamed when complete).
  virtual void Get(std::string host_path, std::string master_path,
                   StatusCallback done) {
    done(Status::FailedPrecondition(std::string(kind()) +
                                    " adapter does not stage files"));
  }

  // Deletes `host_path` on the host, if it is there (no answer).
  virtual void Remove(std::string host_path) {}

  // Asks the connected host for its facts (cores, memory, load) and times
  // the round trip. `done` fires once, later.
  using ProbeCallback = std::function<void(StatusOr<HostProbe>)>;
  virtual void Probe(ProbeCallback done) {
    done(Status::FailedPrecondition(std::string(kind()) +
                                    " adapter cannot be probed"));
  }
};

}  // namespace gs

#endif  // GSRT_ADAPTERS_ADAPTER_H_
