#include "runtime/base/gpu_devices.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <sstream>

namespace gs {
namespace {

std::vector<std::string> SplitList(const std::string& text) {
  std::vector<std::string> ids;
  std::stringstream in(text);
  for (std::string id; std::getline(in, id, ',');) {
    if (!id.empty()) ids.push_back(id);
  }
  return ids;
}

}  // namespace

std::vector<std::string> VisibleGpus(
    const std::function<const char*(const char*)>& getenv,
    const std::vector<std::string>& dev_entries) {
  if (const char* cuda = getenv("CUDA_VISIBLE_DEVICES")) {
    // Set, even to nothing: what the jobs may use. "-1" and NoDevFiles
    // are the CUDA runtime's spellings of none.
    const std::string list = cuda;
    if (list == "-1" || list == "NoDevFiles") return {};
    return SplitList(list);
  }
  for (const char* slurm : {"SLURM_STEP_GPUS", "SLURM_JOB_GPUS"}) {
    if (const char* ids = getenv(slurm); ids && *ids) return SplitList(ids);
  }
  std::vector<int> numbers;
  for (const std::string& name : dev_entries) {
    if (name.size() <= 6 || name.compare(0, 6, "nvidia") != 0) continue;
    const std::string rest = name.substr(6);
    if (rest.size() > 6 || !std::all_of(rest.begin(), rest.end(), [](char c) {
          return c >= '0' && c <= '9';
        }))
      continue;  // nvidiactl, nvidia-uvm, ...
    numbers.push_back(std::stoi(rest));
  }
  std::sort(numbers.begin(), numbers.end());
  std::vector<std::string> ids;
  for (int n : numbers) ids.push_back(std::to_string(n));
  return ids;
}

std::vector<std::string> VisibleGpusOfThisMachine() {
  std::vector<std::string> dev;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/dev", ec))
    dev.push_back(entry.path().filename().string());
  return VisibleGpus([](const char* name) { return std::getenv(name); }, dev);
}

}  // namespace gs
