#include "runtime/engine/master_files.h"

#include <unistd.h>

#include <utility>
#include <vector>

#include "runtime/engine/user_file_names.h"

namespace gs {

MasterFiles::MasterFiles(std::string work_dir, FileSystem& fs,
                         const FileTable& files, TaskGraph& graph,
                         const DataPlaces& data, const HostSet& hosts,
                         const RunNaming& naming, RunStats& stats,
                         std::unique_ptr<Site> site)
    : work_dir_(std::move(work_dir)),
      fs_(fs),
      files_(files),
      graph_(graph),
      data_(data),
      hosts_(hosts),
      naming_(naming),
      stats_(stats),
      site_(std::move(site)) {}

bool MasterFiles::TakeOpen(int fd, OpenFile* entry) {
  auto it = open_.find(fd);
  if (it == open_.end()) return false;
  *entry = it->second;
  open_.erase(it);
  return true;
}

void MasterFiles::FinalizeAll(MutexLock& lock) {
  for (FileId f = 0; f < files_.size(); ++f) {
    uint32_t latest = files_.latest(f);
    if (latest == FileTable::kNone) continue;
    const Version& ver = graph_.version(latest);
    if (ver.number == 0) continue;
    if (ver.state != VersionState::kAvailable) {
      VersionId mine = LastMasterVersion(f);
      if (mine != kNoVersion) {
        stats_.notes.push_back(
            naming_.UserNameOf(f) +
            ": the task that writes its last version did not succeed; it "
            "holds what the program itself last wrote to it (GS_Open/"
            "GS_FOpen)");
        Finalize(lock, f, mine);
        continue;
      }
      stats_.notes.push_back(naming_.UserNameOf(f) +
                             " was not updated: the task that writes its last "
                             "version did not succeed; it is as it was before "
                             "the run");
      continue;
    }
    Finalize(lock, f, latest);
  }
}

VersionId MasterFiles::LastMasterVersion(FileId f) const {
  VersionId best = kNoVersion;
  for (VersionId v = 0; v < graph_.num_versions(); ++v) {
    const Version& ver = graph_.version(v);
    if (ver.file != f || ver.number == 0 || ver.producer != kMasterTask ||
        ver.state != VersionState::kAvailable || !ver.on_master)
      continue;
    if (best == kNoVersion || ver.number > graph_.version(best).number)
      best = v;
  }
  return best;
}

void MasterFiles::Finalize(MutexLock& lock, FileId f, VersionId latest) {
  Status s = site_->BringToMaster(lock, latest);
  // The host holding it was found lost while fetching: its producer was
  // rewound (engine_rewind.cc). Let it run again, wait, fetch anew.
  for (int tries = 0; !s.ok() && tries < 3 &&
                      graph_.version(latest).state == VersionState::kPending;
       ++tries) {
    site_->Wake();
    s = site_->WaitVersion(lock, latest, files_.path(f).c_str());
    if (s.ok()) s = site_->BringToMaster(lock, latest);
  }
  if (!s.ok()) {
    std::vector<PathName> names;
    for (HostId h = 0; h < hosts_.size(); ++h) {
      naming_.AddVersionNames(latest, h, &names);
    }
    stats_.notes.push_back("cannot fetch the final version of " +
                           naming_.UserNameOf(f) + ": " +
                           WithUserNames(s.message(), std::move(names)));
    ++stats_.lost_outputs;
    return;
  }
  // The user's file may be in a directory made since.
  const std::string& user = files_.path(f);
  (void)fs_.CreateDirs(user.substr(0, user.rfind('/')));
  s = fs_.Rename(data_.VersionPath(latest), user);
  if (!s.ok()) {
    // The user's file kept its old content (Rename is atomic); the result
    // must outlive the clean-up of the data directory.
    std::string kept = KeepUnsaved(data_.VersionPath(latest));
    stats_.notes.push_back(
        "cannot put the final version of " + naming_.UserNameOf(f) +
        " in place (" + s.message() + "); " +
        (kept.empty() ? std::string("it is lost")
                      : "it is kept as " + kept +
                            ": make room and move it there yourself"));
    ++stats_.lost_outputs;
  }
}

std::string MasterFiles::KeepUnsaved(const std::string& version) {
  // Beside the data directory, on the same file system: a rename, no space.
  std::string dir = work_dir_ + "/unsaved";
  // The version's own name is unique among the run's files.
  std::string kept = dir + "/" + version.substr(version.rfind('/') + 1);
  if (!fs_.CreateDirs(dir).ok() || !fs_.Rename(version, kept).ok()) {
    return "";
  }
  return kept;
}

void MasterFiles::CloseForgotten() {
  if (open_.empty()) return;
  stats_.notes.push_back(std::to_string(open_.size()) +
                         " files opened with GS_Open were not closed; "
                         "what was written to them is kept");
  for (auto& [fd, entry] : open_) {
    ::close(fd);
    if (entry.write != kNoVersion) {
      std::vector<TaskId> ready;
      graph_.MarkAvailable(entry.write, &ready);
    }
  }
  open_.clear();
}

}  // namespace gs
