// The engine's private pieces shared by engine*.cc: what a job of an
// operation holds, and the links its collaborators ask the engine through.
#ifndef GSRT_RUNTIME_ENGINE_ENGINE_HOSTS_H_
#define GSRT_RUNTIME_ENGINE_ENGINE_HOSTS_H_

#include <memory>
#include <string>

#include "adapters/adapter.h"
#include "runtime/base/clock.h"
#include "runtime/engine/engine.h"
#include "runtime/engine/result_cache.h"
#include "runtime/engine/rewinder.h"
#include "runtime/engine/stall_monitor.h"
#include "runtime/sched/policies_ft.h"

namespace gs {

// What the data mover asks of the engine (engine_data.cc), under mu_.
class Engine::DataMoveLink final : public DataMover::Site {
 public:
  explicit DataMoveLink(Engine* engine) : e_(*engine) {}
  void TransfersChanged() REQUIRES(e_.mu_) override;
  void HostLost(HostId host, const std::string& why) REQUIRES(e_.mu_) override;
  void CopyLost(VersionId v, HostId host, const std::string& why)
      REQUIRES(e_.mu_) override;
  void Fetched() REQUIRES(e_.mu_) override;
  bool KeepsCollected(VersionId v) REQUIRES(e_.mu_) override;

 private:
  Engine& e_;
};

// What the host monitor asks of the engine (engine_rewind.cc).
class Engine::MonitorLink final : public HostMonitor::Site {
 public:
  explicit MonitorLink(Engine* engine) : e_(*engine) {}
  void HostBack(HostId host) override;

 private:
  Engine& e_;
};

// What the result cache asks of the engine (engine_reuse.cc); under mu_
// except Fetch.
class Engine::ReuseLink final : public ResultCache::Site {
 public:
  explicit ReuseLink(Engine* engine) : e_(*engine) {}
  std::string VersionPath(VersionId v) const REQUIRES(e_.mu_) override;
  bool OnMaster(VersionId v) const REQUIRES(e_.mu_) override;
  void Release(TaskId task) REQUIRES(e_.mu_) override;
  void Reused(TaskId task, const std::vector<TaskId>& ready)
      REQUIRES(e_.mu_) override;
  void Placed(VersionId v, uint64_t size) REQUIRES(e_.mu_) override;
  void PostStep() REQUIRES(e_.mu_) override;
  void Settled() REQUIRES(e_.mu_) override;
  void Fetch(VersionId v) override;

 private:
  Engine& e_;
};

// What the dispatcher asks of the engine (engine_schedule.cc).
class Engine::DispatchLink final : public Dispatcher::Site {
 public:
  explicit DispatchLink(Engine* engine) : e_(*engine) {}
  void RetryDue(TaskId task) override;
  bool HoldReady(TaskId task) REQUIRES(e_.mu_) override;

 private:
  Engine& e_;
};

// What the rewinder asks of the engine (engine_rewind.cc), under mu_.
class Engine::RewindLink final : public Rewinder::Site {
 public:
  explicit RewindLink(Engine* engine) : e_(*engine) {}
  size_t NumHosts() const REQUIRES(e_.mu_) override;
  std::string HostName(HostId host) const REQUIRES(e_.mu_) override;
  bool SharesMasterFiles(HostId host) const REQUIRES(e_.mu_) override;
  void Requeue(TaskId task) REQUIRES(e_.mu_) override;
  void Unready(TaskId task) REQUIRES(e_.mu_) override;
  void Wake() REQUIRES(e_.mu_) override;
  void TransfersChanged() REQUIRES(e_.mu_) override;
  void Rewound(const std::string& host, const std::string& detail)
      REQUIRES(e_.mu_) override;

 private:
  Engine& e_;
};

// What a look of the stall watch asks of the engine (engine_stall.cc),
// under mu_.
class Engine::StallLink final : public StallMonitor::Site {
 public:
  explicit StallLink(Engine* engine) : e_(*engine) {}
  bool Stopping() const REQUIRES(e_.mu_) override;
  size_t NumReady() const REQUIRES(e_.mu_) override;
  std::vector<std::pair<TaskId, std::string>> ReadyTasks() const
      REQUIRES(e_.mu_) override;
  void HostStates(std::vector<HostState>* states) const
      REQUIRES(e_.mu_) override;
  size_t NumJobs() const REQUIRES(e_.mu_) override;
  size_t TransfersInFlight() const REQUIRES(e_.mu_) override;
  size_t PendingRetries() const REQUIRES(e_.mu_) override;
  bool AdaptersOfferSlots() const REQUIRES(e_.mu_) override;
  void Wake() REQUIRES(e_.mu_) override;
  std::vector<QuietJob> Jobs(Seconds now) const REQUIRES(e_.mu_) override;
  std::vector<QuietHost> Hosts(Seconds now) const REQUIRES(e_.mu_) override;
  void FailStalled(const std::vector<TaskId>& tasks) REQUIRES(e_.mu_) override;
  void NotifyWaiters() REQUIRES(e_.mu_) override;
  void Quiet(Seconds now, const std::string& report) REQUIRES(e_.mu_) override;

 private:
  Engine& e_;
};

// What the sweeper asks of the engine (engine_sweep.cc).
class Engine::SweepLink final : public HostSweeper::Site {
 public:
  explicit SweepLink(Engine* engine) : e_(*engine) {}
  bool Stopping() const REQUIRES(e_.mu_) override;
  void Post(std::function<void()> fn) override;
  std::vector<std::string> KeptFiles(HostId host) const
      REQUIRES(e_.mu_) override;
  std::vector<std::pair<HostId, std::string>> ResumedCopies() const
      REQUIRES(e_.mu_) override;
  void RemoveRemoteCopies() override;
  void Reconnect(HostId host) override;
  void ReconnectAnswered(HostId host, bool ok) REQUIRES(e_.mu_) override;
  void RecordHostLost(HostId host, const std::string& why)
      REQUIRES(e_.mu_) override;
  void Wait(MutexLock& lock, Seconds bound, std::function<bool()> done)
      REQUIRES(e_.mu_) override;
  void NotifyWaiters() REQUIRES(e_.mu_) override;

 private:
  Engine& e_;
};

// What MasterFiles asks of the engine (engine_files.cc), under mu_.
class Engine::FilesLink final : public MasterFiles::Site {
 public:
  explicit FilesLink(Engine* engine) : e_(*engine) {}
  Status WaitVersion(MutexLock& lock, VersionId v, const char* name)
      REQUIRES(e_.mu_) override;
  Status BringToMaster(MutexLock& lock, VersionId v) REQUIRES(e_.mu_) override;
  void Wake() REQUIRES(e_.mu_) override;

 private:
  Engine& e_;
};

}  // namespace gs

#endif  // GSRT_RUNTIME_ENGINE_ENGINE_HOSTS_H_
