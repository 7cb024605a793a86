// The engine's side of moving data (data_mover.h moves it): a job's inputs
// staged before it is submitted, the master's waits for a version to reach
// its machine, and what the mover asks of the engine (DataMoveLink).
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <memory>

#include "runtime/engine/engine.h"
#include "runtime/engine/engine_hosts.h"
#include "runtime/engine/resume_journal.h"

namespace gs {

void Engine::StageAndSubmit(Dispatch d) {
  const HostId host = d.host;
  std::vector<VersionId> inputs = d.inputs;
  auto dispatch = std::make_shared<Dispatch>(std::move(d));
  mover_.Stage(host, inputs, [this, dispatch](Status error) {
    Dispatch& d = *dispatch;
    {
      MutexLock lock(&mu_);
      --hosts_[d.host]->staging;
      hosts_[d.host]->staging_cores -= d.spec.cores;
    }
    if (!error.ok()) {
      // The job never ran: report it as an infrastructure failure, the
      // same way a lost host would.
      JobReport report;
      report.id = d.spec.id;
      report.outcome =
          HostFailed{"staging inputs to host '" + hosts_[d.host]->name +
                     "' failed: " + error.message()};
      report.submitted = report.started = report.ended = loop_.clock().Now();
      // Not the task's fault: OnJobDone gives its attempt back.
      OnJobDone(d.host, std::move(report), /*host_at_fault=*/false);
      return;
    }
    SubmitToHost(std::move(d));
  });
}

void Engine::DataMoveLink::TransfersChanged() {
  e_.dispatcher_.TransfersChanged();
}

void Engine::DataMoveLink::HostLost(HostId host, const std::string& why) {
  e_.HostLostLocked(host, why);
}

void Engine::DataMoveLink::CopyLost(VersionId v, HostId host,
                                    const std::string& why) {
  e_.rewinder_.CopyLost(e_.mu_, v, host, why);
}

void Engine::DataMoveLink::Fetched() { e_.waits_.NotifyIfWaiting(); }

bool Engine::DataMoveLink::KeepsCollected(VersionId v) {
  if (!e_.memory_.journal) return false;
  // Deleted after the next history commit (DeleteCollectedData).
  e_.memory_.journal->Collected(v);
  return true;
}

Status Engine::BringToMasterLocked(MutexLock& lock, VersionId v) {
  // A copy that turns out lost is recomputed (Rewinder::CopyLost): wait for
  // that and fetch again, a few times at most.
  Status s;
  for (int attempt = 0; attempt < 3; ++attempt) {
    s = FetchOnceLocked(lock, v);
    if (s.ok()) return s;
    // (The producer may already have run again by now.)
    waits_.Begin();
    waits_.gate().wait(lock, [&] {
      mu_.AssertHeld();  // the gate asks with the lock held
      return program_.graph.version(v).state != VersionState::kPending;
    });
    waits_.End();
    if (program_.graph.version(v).state != VersionState::kAvailable) return s;
  }
  return s;
}

Status Engine::FetchOnceLocked(MutexLock& lock, VersionId v) {
  if (memory_.journal) {
    if (Status s = RecoverCollectedLocked(lock, v); !s.ok()) return s;
  }
  if (program_.graph.version(v).on_master) return Status::Ok();
  auto result = std::make_shared<std::optional<Status>>();
  boost::asio::post(loop_.io(), [this, v, result] {
    mover_.FetchToMaster(v, [this, result](Status s) {
      MutexLock lock(&mu_);
      *result = s;
      waits_.gate().notify_all();
    });
  });
  waits_.Begin();
  waits_.gate().wait(lock, [&] { return result->has_value(); });
  waits_.End();
  return result->value();
}

}  // namespace gs
