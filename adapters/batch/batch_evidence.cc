#include "adapters/batch/batch_evidence.h"

#include <filesystem>
#include <system_error>

namespace gs {

namespace fs = std::filesystem;

std::string KeepBatchOutput(const std::string& workdir,
                            const std::string& output,
                            const std::string& name) {
  std::error_code ec;
  if (!fs::exists(output, ec)) return "it wrote no output";
  const std::string dir = workdir + "/failed/batch";
  fs::create_directories(dir, ec);
  if (!ec) {
    // Owner only, like the rest of failed/: outputs may hold user data.
    fs::permissions(workdir + "/failed", fs::perms::owner_all,
                    fs::perm_options::replace, ec);
    ec.clear();
  }
  const std::string kept = dir + "/" + name;
  if (!ec) fs::rename(output, kept, ec);
  if (ec) return "its output: " + output + " (not kept: " + ec.message() + ")";
  return "its output: " + kept;
}

}  // namespace gs
