// Runs fn(0) ... fn(n - 1) on up to `width` threads of their own, each
// taking the next index when it is free; returns when all have returned.
// fn must be safe to run at the same time for different indexes.
#ifndef GSRT_RUNTIME_ENGINE_PARALLEL_FOR_H_
#define GSRT_RUNTIME_ENGINE_PARALLEL_FOR_H_

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <functional>
#include <thread>
#include <vector>

namespace gs {

inline void ParallelFor(size_t n, size_t width,
                        const std::function<void(size_t)>& fn) {
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i = next++; i < n; i = next++) fn(i);
  };
  std::vector<std::thread> threads;
  const size_t count = std::min(n, std::max<size_t>(width, 1));
  for (size_t t = 1; t < count; ++t) threads.emplace_back(work);
  if (count > 0) work();  // the caller's thread is one of them
  for (std::thread& t : threads) t.join();
}

}  // namespace gs

#endif  // GSRT_RUNTIME_ENGINE_PARALLEL_FOR_H_
