#include "runtime/jobs/gpu_pool.h"

namespace gs {

GpuPool::GpuPool(std::vector<std::string> devices, GpuNaming naming)
    : devices_(std::move(devices)), naming_(naming), holder_(devices_.size()) {}

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

void GpuPool::Resize(int count) {
  const size_t n = static_cast<size_t>(count > 0 ? count : 0);
  while (devices_.size() < n)
    devices_.push_back(std::to_string(devices_.size()));
  devices_.resize(n);
  holder_.resize(n);
}

}  // namespace gs
