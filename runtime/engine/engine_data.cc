// The engine's data layer: which hosts hold which versions, and the copies
// needed before a job starts (its inputs onto its host) or before the
// master reads a file (GS_Open, GS_Off). Outputs stay on the host that made
// them until someone needs them elsewhere.
//
// Transfers run on the engine thread through the adapters' Put/Get; the
// maps below are guarded by the engine mutex, and adapters are never called
// with it held.
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <memory>

#include "runtime/engine/engine.h"
#include "runtime/engine/engine_hosts.h"
#include "runtime/engine/resume_journal.h"

namespace gs {

void Engine::StageAndSubmit(Dispatch d) {
  struct Pending {
    Dispatch dispatch;
    size_t left;
    Status error;
  };
  auto pending = std::make_shared<Pending>();
  pending->left = d.inputs.size();
  std::vector<VersionId> inputs = d.inputs;
  pending->dispatch = std::move(d);
  for (VersionId v : inputs) {
    EnsureOnHost(v, pending->dispatch.host, [this, pending](Status s) {
      if (!s.ok() && pending->error.ok()) pending->error = s;
      if (--pending->left > 0) return;
      Dispatch& d = pending->dispatch;
      {
        MutexLock lock(&mu_);
        --hosts_[d.host]->staging;
        hosts_[d.host]->staging_cores -= d.spec.cores;
      }
      if (!pending->error.ok()) {
        // The job never ran: report it as an infrastructure failure, the
        // same way a lost host would.
        JobReport report;
        report.id = d.spec.id;
        report.outcome =
            HostFailed{"staging inputs to host '" + hosts_[d.host]->name +
                       "' failed: " + pending->error.message()};
        report.submitted = report.started = report.ended = clock_->Now();
        // Not the task's fault: OnJobDone gives its attempt back.
        OnJobDone(d.host, std::move(report), /*host_at_fault=*/false);
        return;
      }
      SubmitToHost(std::move(d));
    });
  }
}

void Engine::EnsureOnHost(VersionId v, HostId host, DoneFn done) {
  if (hosts_[host]->shared) return FetchToMaster(v, std::move(done));
  bool on_master;
  std::string master_path, host_path;
  {
    MutexLock lock(&mu_);
    if (data_.HasCopy(v, host)) {
      boost::asio::post(*io_, [done = std::move(done)] { done(Status::Ok()); });
      return;
    }
    // A later request joins the transfer under way.
    if (!data_.JoinTransfer(v, host, std::move(done))) return;
    on_master = graph_.version(v).on_master;
    master_path = data_.VersionPath(v);
    host_path = data_.PathOn(v, host);
    if (on_master && graph_.version(v).number == 0) {
      // The user's own file: its size is learnt when first sent.
      if (FileInfo f = fs_->Stat(master_path); f.exists) {
        graph_.version(v).size = f.size;
        dispatcher_.TransfersChanged();
      }
    }
  }
  Seconds started = clock_->Now();
  auto finish = [this, v, host, started](Status s) {
    std::vector<DoneFn> waiters;
    {
      MutexLock lock(&mu_);
      waiters = data_.EndTransfer(v, host);
      if (s.ok()) {
        data_.AddCopy(v, host);
        data_.ObserveTransfer(host, graph_.version(v).size,
                              clock_->Now() - started);
        dispatcher_.TransfersChanged();
      }
      if (recorder_.watched()) {
        RunEvent e{"transfer", started, clock_->Now() - started};
        e.host = hosts_[host]->name;
        e.bytes = graph_.version(v).size;
        e.detail = data_.VersionFileName(v) + (s.ok() ? "" : " (failed)");
        recorder_.ReportEvent(mu_, std::move(e));
      }
    }
    for (DoneFn& w : waiters) w(s);
  };
  auto put = [this, host, master_path, host_path, finish] {
    hosts_[host]->adapter->Put(master_path, host_path, finish);
  };
  if (on_master) {
    put();
    return;
  }
  // Only other hosts have it: bring it to the master, then send it on.
  FetchToMaster(v, [put, finish](Status s) {
    if (!s.ok()) return finish(s);
    put();
  });
}

void Engine::FetchToMaster(VersionId v, DoneFn done) {
  HostId from = kNoHost;
  std::string host_path, master_path;
  {
    MutexLock lock(&mu_);
    if (graph_.version(v).on_master) {
      boost::asio::post(*io_, [done = std::move(done)] { done(Status::Ok()); });
      return;
    }
    if (!data_.JoinTransfer(v, kNoHost, std::move(done))) return;
    for (HostId h : data_.Holders(v)) {
      if (hosts_[h]->usable) {
        from = h;
        break;
      }
    }
    master_path = data_.VersionPath(v);
    if (from != kNoHost) host_path = data_.PathOn(v, from);
  }
  Seconds started = clock_->Now();
  auto finish = [this, v, from, started](Status s) {
    std::vector<DoneFn> waiters;
    {
      MutexLock lock(&mu_);
      waiters = data_.EndTransfer(v, kNoHost);
      FetchedLocked(v, from, started, s);
    }
    for (DoneFn& w : waiters) w(s);
  };
  if (from == kNoHost) {
    boost::asio::post(*io_, [finish] {
      finish(Status::Unavailable("no reachable host holds a copy"));
    });
    return;
  }
  hosts_[from]->adapter->Get(host_path, master_path, finish);
}

void Engine::FetchedLocked(VersionId v, HostId from, Seconds started,
                           const Status& s) {
  if (recorder_.watched() && from != kNoHost) {
    RunEvent e{"transfer", started, clock_->Now() - started};
    e.bytes = graph_.version(v).size;  // to the master: host ""
    e.detail = data_.VersionFileName(v) + " from " + hosts_[from]->name +
               (s.ok() ? "" : " (failed)");
    recorder_.ReportEvent(mu_, std::move(e));
  }
  if (s.ok()) {
    graph_.version(v).on_master = true;
    data_.ObserveTransfer(from, graph_.version(v).size,
                          clock_->Now() - started);
    dispatcher_.TransfersChanged();
  } else if (from != kNoHost && hosts_[from]->usable &&
             !hosts_[from]->adapter->connected()) {
    // The copy is unreachable because its host is gone: recover now, even
    // if no job of that host reports it.
    HostLostLocked(from, s.message());
  } else if (from != kNoHost && hosts_[from]->usable) {
    // The host answers but cannot give the copy (deleted, corrupt): forget
    // it; with no other copy its producer runs again.
    rewinder_.CopyLost(mu_, v, from, s.message());
  }
  waits_.NotifyIfWaiting();
}

void Engine::CollectGarbageLocked(std::vector<std::string>* doomed) {
  for (VersionId v : graph_.TakeGarbage()) {
    // What the program wrote itself is kept to the end: if the tasks that
    // supersede it fail, it is what the user's file is left with.
    if (graph_.version(v).producer == kMasterTask) continue;
    if (journal_) {
      // Deleted after the next history commit (DeleteCollectedData).
      journal_->Collected(v);
      continue;
    }
    if (graph_.version(v).on_master) doomed->push_back(data_.VersionPath(v));
    graph_.version(v).on_master = false;  // its data is gone everywhere
    dispatcher_.TransfersChanged();
    if (data_.HasRemoteCopy(v)) {
      // Remote copies are removed through their adapters, on the engine
      // thread.
      boost::asio::post(*io_, [this, v] { RemoveVersionData(v); });
    }
  }
}

void Engine::RemoveFiles(const std::vector<std::string>& paths) {
  for (const std::string& path : paths) (void)fs_->Remove(path);
}

void Engine::RemoveVersionData(VersionId v) {
  std::vector<std::pair<HostId, std::string>> copies;
  {
    MutexLock lock(&mu_);
    for (HostId h : data_.TakeCopies(v)) {
      copies.push_back({h, data_.PathOn(v, h)});
    }
    if (copies.empty()) return;
    dispatcher_.TransfersChanged();
  }
  for (auto& [h, path] : copies) {
    if (hosts_[h]->usable) hosts_[h]->adapter->Remove(path);
  }
}

void Engine::RemoveRemoteCopies() {
  std::vector<VersionId> versions;
  {
    MutexLock lock(&mu_);
    versions = data_.VersionsWithCopies();
  }
  for (VersionId v : versions) RemoveVersionData(v);
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
      return graph_.version(v).state != VersionState::kPending;
    });
    waits_.End();
    if (graph_.version(v).state != VersionState::kAvailable) return s;
  }
  return s;
}

Status Engine::FetchOnceLocked(MutexLock& lock, VersionId v) {
  if (journal_) {
    if (Status s = RecoverCollectedLocked(lock, v); !s.ok()) return s;
  }
  if (graph_.version(v).on_master) return Status::Ok();
  auto result = std::make_shared<std::optional<Status>>();
  boost::asio::post(*io_, [this, v, result] {
    FetchToMaster(v, [this, result](Status s) {
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
