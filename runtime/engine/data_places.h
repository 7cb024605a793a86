// Where each version's data is and how it moves: the copies on hosts that
// do not see the master's files, the links learnt from transfers, the
// transfers under way (later requests join them), and the names versions
// have on the master and on each host. The DataMover (data_mover.h), which
// owns it, moves the bytes through the adapters; this decides and
// remembers. Not locked by itself: every call is made with the engine's
// mutex held.
#ifndef GSRT_RUNTIME_ENGINE_DATA_PLACES_H_
#define GSRT_RUNTIME_ENGINE_DATA_PLACES_H_

#include <functional>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/engine/host_set.h"
#include "runtime/graph/file_table.h"
#include "runtime/graph/task_graph.h"
#include "runtime/sched/link_model.h"

namespace gs {

class DataPlaces {
 public:
  using DoneFn = std::function<void(Status)>;
  using CopyMap = std::unordered_map<VersionId, std::vector<HostId>>;

  // Versions live in `work_dir`/data on the master. The references must
  // outlive this object.
  DataPlaces(std::string work_dir, const FileTable& files,
             const TaskGraph& graph, const HostSet& hosts)
      : work_dir_(std::move(work_dir)),
        files_(files),
        graph_(graph),
        hosts_(hosts) {}

  // Names. A version's path on the master (the user's own file for
  // version 0), its file name in a data dir ("<id>-<user's base name>"),
  // and its path on `host`.
  std::string VersionPath(VersionId v) const;
  std::string VersionFileName(VersionId v) const;
  std::string PathOn(VersionId v, HostId host) const;

  // Copies. A host sharing the master's files has what the master has.
  bool HasCopy(VersionId v, HostId host) const;
  bool HasRemoteCopy(VersionId v) const { return copies_.count(v) != 0; }
  // The hosts holding a copy of `v` (not sharing the master's files).
  const std::vector<HostId>& Holders(VersionId v) const;
  void AddCopy(VersionId v, HostId host) { copies_[v].push_back(host); }
  // `v`'s data is on `host` alone (kNoHost: on the master alone).
  void SetOnlyCopy(VersionId v, HostId host);
  // Forgets `host`'s copy; true when another remote copy is left.
  bool DropCopy(VersionId v, HostId host);
  // Forgets every remote copy of `v`; returns the hosts that held one.
  std::vector<HostId> TakeCopies(VersionId v);
  std::vector<VersionId> VersionsWithCopies() const;
  // The file names of the copies kept on `host` (what a sweep keeps).
  std::vector<std::string> FileNamesOn(HostId host) const;
  const CopyMap& copies() const { return copies_; }

  // Links. Every host is added once, in HostId order.
  void AddHost(bool shared) { links_.AddHost(shared); }
  void ObserveTransfer(HostId host, uint64_t bytes, Seconds seconds) {
    links_.Observe(host, bytes, seconds);
  }
  Seconds LinkTime(HostId host, uint64_t bytes) const {
    return links_.Time(host, bytes);
  }
  // What staging `task`'s inputs on `host` would take, with the host's
  // expected start delay (a batch queue's wait delays it the same way).
  Seconds PredictTransfer(TaskId task, HostId host) const;

  // Transfers under way, to `dest` (kNoHost: the master). True when this
  // request starts the transfer; false when it joined one under way.
  bool JoinTransfer(VersionId v, HostId dest, DoneFn done);
  // The transfer ended: everyone who waited for it, in order.
  std::vector<DoneFn> EndTransfer(VersionId v, HostId dest);
  size_t transfers_in_flight() const { return in_flight_.size(); }

 private:
  const std::string work_dir_;
  const FileTable& files_;
  const TaskGraph& graph_;
  const HostSet& hosts_;
  CopyMap copies_;
  LinkModel links_;
  std::map<std::pair<VersionId, HostId>, std::vector<DoneFn>> in_flight_;
};

}  // namespace gs

#endif  // GSRT_RUNTIME_ENGINE_DATA_PLACES_H_
