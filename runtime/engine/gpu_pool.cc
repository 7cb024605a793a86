#include "runtime/engine/gpu_pool.h"

namespace gs {

GpuPool::GpuPool(std::vector<std::string> devices)
    : devices_(std::move(devices)),
      held_(devices_.size(), false),
      holder_(devices_.size(), 0) {}

int GpuPool::free() const {
  int n = 0;
  for (bool h : held_) n += !h;
  return n;
}

std::vector<std::string> GpuPool::Take(JobId job, int k) {
  if (k <= 0 || free() < k) return {};
  std::vector<std::string> taken;
  for (size_t d = 0; d < devices_.size() && static_cast<int>(taken.size()) < k;
       ++d) {
    if (held_[d]) continue;
    held_[d] = true;
    holder_[d] = job;
    taken.push_back(devices_[d]);
  }
  return taken;
}

void GpuPool::Release(JobId job) {
  for (size_t d = 0; d < devices_.size(); ++d) {
    if (held_[d] && holder_[d] == job) held_[d] = false;
  }
}

std::string GpuPool::Joined(const std::vector<std::string>& devices) {
  std::string text;
  for (const std::string& d : devices) text += (text.empty() ? "" : ",") + d;
  return text;
}

}  // namespace gs
