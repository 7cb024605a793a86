#include "sim/runner/scratch_dir.h"

#include <stdlib.h>

namespace gs {

StatusOr<std::unique_ptr<ScratchDir>> ScratchDir::Make(
    const std::filesystem::path& base, const std::string& prefix) {
  std::string tmpl = (base / (prefix + "-XXXXXX")).string();
  if (!::mkdtemp(tmpl.data())) {
    return Status::IoError("cannot make a temporary directory in " +
                           base.string() + "; set TMPDIR to a writable one");
  }
  return std::unique_ptr<ScratchDir>(new ScratchDir(std::move(tmpl)));
}

ScratchDir::~ScratchDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

}  // namespace gs
