// A master in a forked child, for tests of what dies with a master killed
// outright: a LocalAdapter in `mode` runs one job that writes its pid to
// `pid_file` and sleeps for a minute; the test SIGKILLs the child.
#ifndef GSRT_TESTS_SUPPORT_CHILD_MASTER_H_
#define GSRT_TESTS_SUPPORT_CHILD_MASTER_H_

#include <sys/types.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

#include "adapters/local/local_adapter.h"
#include "runtime/base/asio_clock.h"
#include "tests/support/job_spec_builder.h"
#include "tests/support/test_files.h"

namespace gs::testing {

// Forks the child master; returns its pid (-1 if fork failed). `worker` must
// have the serve test worker's `pid_then_sleep`.
inline pid_t ForkMasterRunningOneJob(const std::filesystem::path& work_dir,
                                     WorkerMode mode, const std::string& worker,
                                     const std::filesystem::path& pid_file) {
  const pid_t master = ::fork();
  if (master != 0) return master;
  boost::asio::io_context io;
  AsioClock clock(io);
  LocalAdapterOptions options;
  options.slots = 1;
  options.work_dir = work_dir;
  options.workers = mode;
  LocalAdapter adapter(io, clock, options);
  if (!adapter.Connect().ok()) ::_exit(1);
  adapter.Submit(TestJob(1, worker, "pid_then_sleep",
                         {Scalar(pid_file.string()), Scalar("60000")}),
                 [](const JobReport&) {});
  io.run_for(std::chrono::seconds(60));
  ::_exit(0);
}

// The pid the job wrote, once the file holds it (a bounded poll: the file
// is written by a grandchild, which nothing here can wait on); 0 if it did
// not within `bound`.
inline pid_t AwaitJobPid(const std::filesystem::path& pid_file,
                         std::chrono::seconds bound) {
  const auto deadline = std::chrono::steady_clock::now() + bound;
  while (std::chrono::steady_clock::now() < deadline) {
    const std::string text = ReadText(pid_file.string()).value_or("");
    if (!text.empty()) return static_cast<pid_t>(std::stol(text));
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return 0;
}

}  // namespace gs::testing

#endif  // GSRT_TESTS_SUPPORT_CHILD_MASTER_H_
