#include "adapters/agent/work_dir_sweep.h"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <system_error>

#include "runtime/base/file_io.h"

namespace gs {

namespace fs = std::filesystem;

namespace {

// The owner recorded in `work_dir`, "" when none is.
std::string RecordedOwner(const std::string& path) {
  std::ifstream in(path);
  std::string text((std::istreambuf_iterator<char>(in)),
                   std::istreambuf_iterator<char>());
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

// Removes the entries of `dir` that `spare` does not name, counting them.
template <typename Spare>
int RemoveEntries(const std::string& dir, Spare spare,
                  std::vector<std::string>* failures) {
  std::error_code ec;
  fs::directory_iterator it(dir, ec), end;
  if (ec) {
    if (ec != std::errc::no_such_file_or_directory)
      failures->push_back(dir + ": " + ec.message());
    return 0;
  }
  int removed = 0;
  for (; it != end; it.increment(ec)) {
    const fs::path entry = it->path();
    if (spare(entry.filename().string())) continue;
    std::error_code rm;
    // remove_all does not follow symlinks: a link is removed, not its
    // target.
    fs::remove_all(entry, rm);
    if (rm) {
      failures->push_back(entry.string() + ": " + rm.message());
    } else {
      ++removed;
    }
  }
  if (ec) failures->push_back(dir + ": " + ec.message());
  return removed;
}

}  // namespace

StatusOr<SweepCounts> SweepWorkDir(const std::string& work_dir,
                                   const std::string& owner,
                                   const std::vector<std::string>& keep) {
  if (owner.empty() || owner.find('\n') != std::string::npos) {
    return Status::InvalidArgument("a sweep needs its master's name");
  }
  const std::string owner_file = work_dir + "/owner";
  const std::string recorded = RecordedOwner(owner_file);
  if (recorded.empty()) {
    Status s = WriteFileAtomically(owner_file, owner + "\n");
    if (!s.ok()) return s;
  } else if (recorded != owner) {
    return Status::FailedPrecondition(
        "the work dir " + work_dir + " belongs to the master of " + recorded +
        ", not " + owner +
        "; nothing is removed (give each master work dir its own host "
        "workdir in gsrt.yaml)");
  }
  SweepCounts counts;
  const std::set<std::string> kept(keep.begin(), keep.end());
  counts.data_entries = RemoveEntries(
      work_dir + "/data",
      [&](const std::string& name) { return kept.count(name) > 0; },
      &counts.failures);
  counts.sandboxes = RemoveEntries(
      work_dir + "/jobs", [](const std::string&) { return false; },
      &counts.failures);
  return counts;
}

}  // namespace gs
