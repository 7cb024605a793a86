#include "runtime/engine/data_places.h"

#include <algorithm>

namespace gs {

std::string DataPlaces::VersionPath(VersionId v) const {
  const Version& ver = graph_.version(v);
  const std::string& user = files_.path(ver.file);
  if (ver.number == 0) return user;
  return work_dir_ + "/data/" + VersionFileName(v);
}

std::string DataPlaces::VersionFileName(VersionId v) const {
  // Keep the user's base name (and so its extension) for functions that
  // look at it; bound its length to stay under NAME_MAX.
  const std::string& user = files_.path(graph_.version(v).file);
  std::string base = user.substr(user.rfind('/') + 1);
  if (base.size() > 200) base = base.substr(base.size() - 200);
  return std::to_string(v) + "-" + base;
}

std::string DataPlaces::PathOn(VersionId v, HostId host) const {
  const HostEntry& h = *hosts_[host];
  if (h.shared) return VersionPath(v);
  return h.data_dir + "/" + VersionFileName(v);
}

bool DataPlaces::HasCopy(VersionId v, HostId host) const {
  if (hosts_[host]->shared) return graph_.version(v).on_master;
  auto it = copies_.find(v);
  if (it == copies_.end()) return false;
  return std::find(it->second.begin(), it->second.end(), host) !=
         it->second.end();
}

const std::vector<HostId>& DataPlaces::Holders(VersionId v) const {
  static const std::vector<HostId> kNone;
  auto it = copies_.find(v);
  return it == copies_.end() ? kNone : it->second;
}

void DataPlaces::SetOnlyCopy(VersionId v, HostId host) {
  if (host == kNoHost) {
    copies_.erase(v);
  } else {
    copies_[v] = {host};
  }
}

bool DataPlaces::DropCopy(VersionId v, HostId host) {
  auto it = copies_.find(v);
  if (it == copies_.end()) return false;
  std::erase(it->second, host);
  if (!it->second.empty()) return true;
  copies_.erase(it);
  return false;
}

std::vector<HostId> DataPlaces::TakeCopies(VersionId v) {
  auto it = copies_.find(v);
  if (it == copies_.end()) return {};
  std::vector<HostId> holders = std::move(it->second);
  copies_.erase(it);
  return holders;
}

std::vector<VersionId> DataPlaces::VersionsWithCopies() const {
  std::vector<VersionId> versions;
  versions.reserve(copies_.size());
  for (const auto& [v, holders] : copies_) versions.push_back(v);
  return versions;
}

std::vector<std::string> DataPlaces::FileNamesOn(HostId host) const {
  std::vector<std::string> names;
  for (const auto& [v, holders] : copies_) {
    for (HostId holder : holders) {
      if (holder == host) names.push_back(VersionFileName(v));
    }
  }
  return names;
}

Seconds DataPlaces::PredictTransfer(TaskId task, HostId host) const {
  Seconds total = hosts_[host]->adapter->expected_start_delay();
  const Task& t = graph_.task(task);
  const FileAccess* acc = graph_.accesses(task);
  for (uint32_t i = 0; i < t.num_files; ++i) {
    VersionId v = acc[i].in;
    if (v == kNoVersion || HasCopy(v, host)) continue;
    const Version& ver = graph_.version(v);
    if (!ver.on_master) {
      // Two hops: to the master first, from wherever a copy is.
      const std::vector<HostId>& holders = Holders(v);
      if (!holders.empty()) total += links_.Time(holders.front(), ver.size);
    }
    total += links_.Time(host, ver.size);
  }
  return total;
}

bool DataPlaces::JoinTransfer(VersionId v, HostId dest, DoneFn done) {
  auto& waiters = in_flight_[{v, dest}];
  waiters.push_back(std::move(done));
  return waiters.size() == 1;
}

std::vector<DataPlaces::DoneFn> DataPlaces::EndTransfer(VersionId v,
                                                        HostId dest) {
  auto it = in_flight_.find({v, dest});
  if (it == in_flight_.end()) return {};
  std::vector<DoneFn> waiters = std::move(it->second);
  in_flight_.erase(it);
  return waiters;
}

}  // namespace gs
