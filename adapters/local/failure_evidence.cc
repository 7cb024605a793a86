#include "adapters/local/failure_evidence.h"

#include <cstdio>
#include <vector>

namespace gs {

std::string EvidenceSession(std::time_t now, pid_t pid) {
  std::tm utc{};
  ::gmtime_r(&now, &utc);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d%02d%02d-%02d%02d%02d-%ld",
                utc.tm_year + 1900, utc.tm_mon + 1, utc.tm_mday, utc.tm_hour,
                utc.tm_min, utc.tm_sec, static_cast<long>(pid));
  return buf;
}

std::string EvidenceName(TaskId task, const std::string& operation, JobId job) {
  std::string op = operation;
  for (char& c : op) {
    bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                 (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-';
    if (!plain) c = '_';
  }
  return "task-" + std::to_string(task) + "-" + op + "-job-" +
         std::to_string(job);
}

StatusOr<std::string> FailureEvidence::Keep(const std::string& sandbox,
                                            const std::string& name) {
  if (session_dir_.empty()) {
    std::string dir = failed_dir_ + "/" + session_;
    if (Status s = fs_.CreateDirs(dir); !s.ok()) {
      return Status::IoError("cannot create " + dir + " (" + s.message() + ")");
    }
    // Outputs and logs may hold the user's data.
    (void)fs_.RestrictToOwner(failed_dir_);
    (void)fs_.RestrictToOwner(dir);
    session_dir_ = dir;
  }
  std::string to = session_dir_ + "/" + name;
  // A job id is used once per session; a leftover is never overwritten.
  for (int n = 2; fs_.Examine(to).ok(); ++n) {
    to = session_dir_ + "/" + name + "." + std::to_string(n);
  }
  if (Status s = fs_.Rename(sandbox, to); !s.ok()) {
    return Status::IoError("cannot keep " + sandbox + " as " + to + " (" +
                           s.message() + ")");
  }
  return to;
}

int FailureEvidence::RemoveOlderThan(Seconds max_age, std::time_t now) const {
  if (max_age <= 0) return 0;
  std::vector<std::string> sessions;
  (void)fs_.ListDir(failed_dir_, [&](const DirEntry& e) {
    if (e.name != session_ && (e.kind == DirEntry::Kind::kDirectory ||
                               e.kind == DirEntry::Kind::kUnknown)) {
      sessions.push_back(failed_dir_ + "/" + std::string(e.name));
    }
    return true;
  });
  int removed = 0;
  for (const std::string& path : sessions) {
    auto info = fs_.Examine(path);
    if (!info.ok() || !info->directory) continue;
    const std::time_t mtime =
        static_cast<std::time_t>(info->mtime_ns / 1000000000);
    if (static_cast<double>(now - mtime) <= max_age) continue;
    (void)fs_.RemoveAll(path);
    ++removed;
  }
  return removed;
}

}  // namespace gs
