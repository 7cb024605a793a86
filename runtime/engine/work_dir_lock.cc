#include "runtime/engine/work_dir_lock.h"

#include <cctype>

namespace gs {

std::string AnotherMasterMessage(const std::string& work_dir,
                                 const std::string& holder) {
  std::string who =
      holder.empty() ? "another master" : "another master (pid " + holder + ")";
  return who + " is running with the work directory " + work_dir +
         "; two masters in one work directory would overwrite each other's "
         "files. Wait for it to end (or stop it), or run this one from "
         "another directory or with another runtime.work_dir in gsrt.yaml";
}

constexpr char kWorkDirAdvice[] =
    " (make it writable, or set runtime.work_dir in gsrt.yaml to a directory "
    "you can write)";

StatusOr<std::unique_ptr<FileLock>> LockWorkDir(FileSystem& fs,
                                                const std::string& work_dir,
                                                long pid) {
  if (Status s = fs.CreateDirs(work_dir); !s.ok()) {
    return Status::IoError("cannot create the work directory " + work_dir +
                           ": " + s.message() + kWorkDirAdvice);
  }
  std::string path = work_dir + "/lock";
  auto lock = fs.Lock(path);
  if (lock.ok()) {
    // Truncated in place: the locked file stays the same.
    (void)fs.WriteFile(path, std::to_string(pid) + "\n");
    return lock;
  }
  if (lock.status().code() != Status::Code::kUnavailable) {
    return Status::IoError("cannot create the work directory " + work_dir +
                           ": " + lock.status().message() + kWorkDirAdvice);
  }
  std::string holder;
  (void)fs.Read(path, [&](std::string_view chunk) {
    for (char c : chunk) {
      if (!std::isdigit(static_cast<unsigned char>(c))) break;
      holder += c;
    }
  });
  return Status::Unavailable(AnotherMasterMessage(work_dir, holder));
}

}  // namespace gs
