// A private temporary directory for one simulated run (its work files, a
// copy of a history), removed with everything in it when it goes.
#ifndef GSRT_SIM_RUNNER_SCRATCH_DIR_H_
#define GSRT_SIM_RUNNER_SCRATCH_DIR_H_

#include <filesystem>
#include <memory>
#include <string>

#include "runtime/base/status.h"

namespace gs {

class ScratchDir {
 public:
  // Makes BASE/PREFIX-XXXXXX; the error names BASE and what to do.
  static StatusOr<std::unique_ptr<ScratchDir>> Make(
      const std::filesystem::path& base, const std::string& prefix);
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  const std::string& path() const { return path_; }

 private:
  explicit ScratchDir(std::string path) : path_(std::move(path)) {}
  std::string path_;
};

}  // namespace gs

#endif  // GSRT_SIM_RUNNER_SCRATCH_DIR_H_
