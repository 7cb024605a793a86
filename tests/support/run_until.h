// Drives an io_context until a condition holds, bounded by a deadline, so
// tests of asynchronous code never hang.
#ifndef GSRT_TESTS_SUPPORT_RUN_UNTIL_H_
#define GSRT_TESTS_SUPPORT_RUN_UNTIL_H_

#include <boost/asio/io_context.hpp>
#include <chrono>

namespace gs {

// Runs `io` until `done()` is true; false if `limit` passed first.
template <typename Pred>
bool RunUntil(boost::asio::io_context& io, Pred done,
              std::chrono::milliseconds limit = std::chrono::seconds(30)) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (!done()) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    io.restart();
    io.run_one_for(std::chrono::milliseconds(50));
  }
  return true;
}

// Runs whatever is ready now, without blocking.
inline void RunReady(boost::asio::io_context& io) {
  io.restart();
  io.poll();
}

}  // namespace gs

#endif  // GSRT_TESTS_SUPPORT_RUN_UNTIL_H_
