#include "runtime/engine/gpu_pool.h"

namespace gs {

GpuPool::GpuPool(std::vector<std::string> devices)
    : devices_(std::move(devices)), holder_(devices_.size()) {}

int GpuPool::free() const {
  int n = 0;
  for (const std::optional<JobId>& h : holder_) n += !h.has_value();
  return n;
}

std::vector<std::string> GpuPool::Take(JobId job, int k) {
  if (k <= 0 || free() < k) return {};
  std::vector<std::string> taken;
  for (size_t d = 0; d < devices_.size() && static_cast<int>(taken.size()) < k;
       ++d) {
    if (holder_[d]) continue;
    holder_[d] = job;
    taken.push_back(devices_[d]);
  }
  return taken;
}

void GpuPool::Release(JobId job) {
  for (std::optional<JobId>& h : holder_) {
    if (h == job) h.reset();
  }
}

}  // namespace gs
