#include "adapters/local/failure_evidence.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <filesystem>

namespace gs {

namespace fs = std::filesystem;

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
  std::error_code ec;
  if (session_dir_.empty()) {
    std::string dir = failed_dir_ + "/" + session_;
    fs::create_directories(dir, ec);
    if (ec) {
      return Status::FromErrno("cannot create " + dir, ec.value());
    }
    // Outputs and logs may hold the user's data.
    fs::permissions(failed_dir_, fs::perms::owner_all,
                    fs::perm_options::replace, ec);
    fs::permissions(dir, fs::perms::owner_all, fs::perm_options::replace, ec);
    session_dir_ = dir;
  }
  std::string to = session_dir_ + "/" + name;
  // A job id is used once per session; a leftover is never overwritten.
  for (int n = 2; fs::exists(to, ec); ++n) {
    to = session_dir_ + "/" + name + "." + std::to_string(n);
  }
  if (::rename(sandbox.c_str(), to.c_str()) != 0) {
    return Status::FromErrno("cannot keep " + sandbox + " as " + to, errno);
  }
  return to;
}

int FailureEvidence::RemoveOlderThan(Seconds max_age, std::time_t now) const {
  if (max_age <= 0) return 0;
  int removed = 0;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(failed_dir_, ec)) {
    if (entry.path().filename() == session_) continue;
    struct stat st;
    if (::lstat(entry.path().c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
      continue;
    if (static_cast<double>(now - st.st_mtime) <= max_age) continue;
    std::error_code ignored;
    fs::remove_all(entry.path(), ignored);
    ++removed;
  }
  return removed;
}

}  // namespace gs
