// An adapter wrapper that injects faults into any adapter, for testing the
// runtime's failure handling without real failures: the host goes down,
// the next submits fail, the host hangs (stops answering, so its
// heartbeats stop), a file on the host is lost. Faults are set from any
// thread through a FaultPlan.
//
// A hung host models a SIGSTOPped machine: jobs neither finish nor start,
// it stops being heard from, and after `heartbeat_timeout` of silence the
// wrapper gives it up as an agent would (running jobs end HostFailed,
// connected() is false); Resume() makes it answer again, and the runtime's
// reconnect finds it back.
#ifndef GSRT_TESTS_SUPPORT_FAULT_INJECTING_ADAPTER_H_
#define GSRT_TESTS_SUPPORT_FAULT_INJECTING_ADAPTER_H_

#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "adapters/adapter_wrapper.h"
#include "runtime/base/clock.h"

namespace boost::asio {
class io_context;
}

namespace gs {

// What to inject. Thread-safe: tests set it while the engine runs.
class FaultPlan {
 public:
  // Down: the connection is lost. Running jobs end HostFailed, new ones
  // fail at once, transfers fail, reconnects fail until SetDown(false).
  void SetDown(bool down);
  // The next `n` submitted jobs end with `outcome` without running.
  void FailNextSubmits(int n, JobOutcome outcome);
  // Hang: the host stops answering (see the file comment), as if it had
  // been silent for `silent_for` seconds already.
  void Hang(Seconds silent_for = 0);
  void Resume();
  // The host's copy of `path` is gone: Get of it fails as a missing file.
  void LoseFile(const std::string& path);

  // Heartbeats the wrapper pretends to hear while the host answers; 0 =
  // none (then a hang is noticed only through job timeouts).
  void set_heartbeat(Seconds interval, Seconds timeout);

  // Called (outside the plan's lock) whenever a fault changes, so the
  // adapter reacts at once; set by the adapter.
  void set_on_change(std::function<void()> fn);

  // What happened, for assertions.
  int injected_failures() const;
  int submits() const;

 private:
  friend class FaultInjectingAdapter;
  mutable std::mutex mu_;
  bool down_ = false;
  bool hung_ = false;
  Seconds silent_for_ = 0;
  std::deque<JobOutcome> fail_next_;
  std::set<std::string> lost_files_;
  Seconds heartbeat_interval_ = 0;
  Seconds heartbeat_timeout_ = 0;
  int injected_ = 0;
  int submits_ = 0;
  std::function<void()> on_change_;

  void Changed();
};

// Overrides what a fault changes; the rest is the wrapped adapter's.
class FaultInjectingAdapter : public AdapterWrapper {
 public:
  FaultInjectingAdapter(boost::asio::io_context& io, Clock& clock,
                        std::unique_ptr<Adapter> inner,
                        std::shared_ptr<FaultPlan> plan);
  ~FaultInjectingAdapter() override;

  Status Connect() override;
  int FreeSlots() const override;
  bool connected() const override;
  void Reconnect(std::function<void(Status)> done) override;
  Seconds last_heard() const override;
  Seconds heartbeat_interval() const override;
  void Submit(JobSpec spec, DoneCallback done) override;
  void Cancel(JobId id) override;
  void Shutdown() override;
  void Put(std::string master_path, std::string host_path,
           StatusCallback done) override;
  void Get(std::string host_path, std::string master_path,
           StatusCallback done) override;
  // A host that does not answer cannot be probed either.
  void Probe(ProbeCallback done) override;

 private:
  struct Running {
    DoneCallback done;
    bool finished = false;  // the inner adapter reported; held while hung
    JobReport report;
    std::vector<std::string> outputs;  // fresh copies once it succeeds
  };

  // Ends every job that has not reported with HostFailed(`why`).
  void FailRunning(const std::string& why);
  void OnInnerDone(JobReport report);
  void ReleaseHeld();
  // Reacts to the plan (on the engine thread).
  void Check();
  void Post(std::function<void()> fn);
  bool Down() const;

  boost::asio::io_context& io_;
  Clock& clock_;
  std::unique_ptr<Adapter> owned_;  // the target
  std::shared_ptr<FaultPlan> plan_;
  std::map<JobId, Running> running_;
  // Submits that arrived while hung: started when the host answers again.
  std::vector<std::pair<JobSpec, DoneCallback>> held_submits_;
  Seconds hung_since_ = -1;
  bool given_up_ = false;  // a hang outlasted the heartbeat timeout
  std::unique_ptr<Timer> hang_timer_;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace gs

#endif  // GSRT_TESTS_SUPPORT_FAULT_INJECTING_ADAPTER_H_
