#include "runtime/engine/data_mover.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <utility>

namespace gs {

DataMover::DataMover(Mutex& mu, FileSystem& fs, std::string work_dir,
                     const FileTable& files, TaskGraph& graph, HostSet& hosts,
                     RunRecorder& recorder, std::unique_ptr<Site> site)
    : mu_(mu),
      fs_(fs),
      graph_(graph),
      places_(std::move(work_dir), files, graph, hosts),
      hosts_(hosts),
      recorder_(recorder),
      site_(std::move(site)) {}

void DataMover::Stage(HostId host, const std::vector<VersionId>& inputs,
                      DoneFn done) {
  struct Pending {
    size_t left;
    Status error;
    DoneFn done;
  };
  auto pending = std::make_shared<Pending>();
  pending->left = inputs.size();
  pending->done = std::move(done);
  for (VersionId v : inputs) {
    EnsureOnHost(v, host, [pending](Status s) {
      if (!s.ok() && pending->error.ok()) pending->error = s;
      if (--pending->left == 0) pending->done(pending->error);
    });
  }
}

void DataMover::EnsureOnHost(VersionId v, HostId host, DoneFn done) {
  if (hosts_[host]->shared) return FetchToMaster(v, std::move(done));
  bool on_master;
  std::string master_path, host_path;
  {
    MutexLock lock(&mu_);
    if (places_.HasCopy(v, host) || UserFileAbsent(v)) {
      boost::asio::post(*io_, [done = std::move(done)] { done(Status::Ok()); });
      return;
    }
    // A later request joins the transfer under way.
    if (!places_.JoinTransfer(v, host, std::move(done))) return;
    on_master = graph_.version(v).on_master;
    master_path = places_.VersionPath(v);
    host_path = places_.PathOn(v, host);
  }
  Seconds started = clock_->Now();
  auto finish = [this, v, host, started](Status s) {
    std::vector<DoneFn> waiters;
    {
      MutexLock lock(&mu_);
      waiters = places_.EndTransfer(v, host);
      if (s.ok()) {
        places_.AddCopy(v, host);
        places_.ObserveTransfer(host, graph_.version(v).size,
                                clock_->Now() - started);
        site_->TransfersChanged();
      }
      ReportTransfer(v, hosts_[host]->name,
                     places_.VersionFileName(v) + (s.ok() ? "" : " (failed)"),
                     started);
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

bool DataMover::UserFileAbsent(VersionId v) {
  const Version& version = graph_.version(v);
  if (!version.on_master || version.number != 0) return false;
  // The user's own file: its size is learnt when first sent. Only a path
  // with nothing there is absent; anything else is sent, and what cannot
  // be sent (a directory, an unreadable file) fails its staging.
  StatusOr<FileInfo> f = fs_.Examine(places_.VersionPath(v));
  if (!f.ok()) return f.status().code() == Status::Code::kNotFound;
  graph_.version(v).size = f->size;
  site_->TransfersChanged();
  return false;
}

void DataMover::FetchToMaster(VersionId v, DoneFn done) {
  HostId from = kNoHost;
  std::string host_path, master_path;
  {
    MutexLock lock(&mu_);
    if (graph_.version(v).on_master) {
      boost::asio::post(*io_, [done = std::move(done)] { done(Status::Ok()); });
      return;
    }
    if (!places_.JoinTransfer(v, kNoHost, std::move(done))) return;
    for (HostId h : places_.Holders(v)) {
      if (hosts_[h]->usable) {
        from = h;
        break;
      }
    }
    master_path = places_.VersionPath(v);
    if (from != kNoHost) host_path = places_.PathOn(v, from);
  }
  Seconds started = clock_->Now();
  auto finish = [this, v, from, started](Status s) {
    std::vector<DoneFn> waiters;
    {
      MutexLock lock(&mu_);
      waiters = places_.EndTransfer(v, kNoHost);
      Fetched(v, from, started, s);
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

void DataMover::Fetched(VersionId v, HostId from, Seconds started,
                        const Status& s) {
  if (from != kNoHost) {
    // To the master: host "".
    ReportTransfer(v, "",
                   places_.VersionFileName(v) + " from " + hosts_[from]->name +
                       (s.ok() ? "" : " (failed)"),
                   started);
  }
  if (s.ok()) {
    graph_.version(v).on_master = true;
    places_.ObserveTransfer(from, graph_.version(v).size,
                            clock_->Now() - started);
    site_->TransfersChanged();
  } else if (from != kNoHost && hosts_[from]->usable &&
             !hosts_[from]->adapter->connected()) {
    // The copy is unreachable because its host is gone: recover now, even
    // if no job of that host reports it.
    site_->HostLost(from, s.message());
  } else if (from != kNoHost && hosts_[from]->usable) {
    // The host answers but cannot give the copy (deleted, corrupt): forget
    // it; with no other copy its producer runs again.
    site_->CopyLost(v, from, s.message());
  }
  site_->Fetched();
}

void DataMover::ReportTransfer(VersionId v, const std::string& host,
                               const std::string& detail, Seconds started) {
  if (!recorder_.watched()) return;
  RunEvent e{"transfer", started, clock_->Now() - started};
  e.host = host;
  e.bytes = graph_.version(v).size;
  e.detail = detail;
  recorder_.ReportEvent(mu_, std::move(e));
}

void DataMover::CollectGarbage(const Mutex& mu,
                               std::vector<std::string>* doomed) {
  mu_.AssertHeldAs(mu);
  for (VersionId v : graph_.TakeGarbage()) {
    // What the program wrote itself is kept to the end: if the tasks that
    // supersede it fail, it is what the user's file is left with.
    if (graph_.version(v).producer == kMasterTask) continue;
    if (site_->KeepsCollected(v)) continue;
    if (graph_.version(v).on_master) doomed->push_back(places_.VersionPath(v));
    graph_.version(v).on_master = false;  // its data is gone everywhere
    site_->TransfersChanged();
    if (places_.HasRemoteCopy(v)) {
      // Remote copies are removed through their adapters, on the engine
      // thread.
      boost::asio::post(*io_, [this, v] { RemoveVersionData(v); });
    }
  }
}

void DataMover::RemoveFiles(const std::vector<std::string>& paths) {
  for (const std::string& path : paths) (void)fs_.Remove(path);
}

void DataMover::RemoveVersionData(VersionId v) {
  std::vector<std::pair<HostId, std::string>> copies;
  {
    MutexLock lock(&mu_);
    for (HostId h : places_.TakeCopies(v)) {
      copies.push_back({h, places_.PathOn(v, h)});
    }
    if (copies.empty()) return;
    site_->TransfersChanged();
  }
  for (auto& [h, path] : copies) {
    if (hosts_[h]->usable) hosts_[h]->adapter->Remove(path);
  }
}

void DataMover::RemoveRemoteCopies() {
  std::vector<VersionId> versions;
  {
    MutexLock lock(&mu_);
    versions = places_.VersionsWithCopies();
  }
  for (VersionId v : versions) RemoveVersionData(v);
}

}  // namespace gs
