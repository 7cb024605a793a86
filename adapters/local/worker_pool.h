// Persistent workers of the local adapter (runtime.workers: persistent):
// `NAME-worker serve PID` processes, each reached through one Unix stream
// socket (its stdin and stdout; protocol in runtime/base/serve_protocol.h),
// kept idle between jobs and recycled after `max_jobs` jobs or once their
// peak memory passed `max_rss_kb`. A worker that crashed, hung or was
// cancelled is never given back: the adapter stops it and a fresh one
// serves the next job. A worker serves only jobs with the environment of
// its first job, and starts with it: what a library reads once at start-up
// (OpenMP's OMP_NUM_THREADS) then always matches the job.
//
// The same pool keeps the fork servers of runtime.workers: fork
// (`NAME-worker fork-server PID`): one per busy slot, each forking a fresh
// process per job; they run no user code, so they do not wear out, and the
// adapter gives them no limits.
#ifndef GSRT_ADAPTERS_LOCAL_WORKER_POOL_H_
#define GSRT_ADAPTERS_LOCAL_WORKER_POOL_H_

#include <sys/types.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "adapters/local/worker_launch.h"
#include "runtime/base/serve_protocol.h"
#include "runtime/base/status.h"

namespace gs {

// One running worker. Destroying it kills its process group and reaps it.
class PersistentWorker {
 public:
  PersistentWorker(pid_t pid, int socket, std::string program,
                   std::vector<std::string> env)
      : pid_(pid),
        socket_(socket),
        program_(std::move(program)),
        env_(std::move(env)) {}
  ~PersistentWorker() { Stop(); }
  PersistentWorker(const PersistentWorker&) = delete;
  PersistentWorker& operator=(const PersistentWorker&) = delete;

  pid_t pid() const { return pid_; }
  // The adapter's end of the socket; the worker owns it.
  int socket() const { return socket_; }
  // The socket watched by `io`, made at the first call and kept for the
  // worker's life: registering it with the reactor per job cost three
  // system calls of the master's (add, non-blocking, remove).
  boost::asio::posix::stream_descriptor& Channel(boost::asio::io_context& io);
  const std::string& program() const { return program_; }
  // The job environment ("NAME=value" entries) it serves.
  const std::vector<std::string>& env() const { return env_; }
  int jobs() const { return jobs_; }

  // Writes a whole request frame, waiting at most a few seconds for room;
  // fails when the worker is gone (it died idle) or does not read.
  Status Send(const std::string& frame);

  // Counts the job the reply answers and returns the CPU time it used
  // (the reply carries the worker's totals).
  void Answered(const ServeReply& reply, int64_t* user_us, int64_t* system_us);

  // SIGKILL to its process group, then waitpid; the wait status, or -1
  // when already stopped.
  int Stop();

 private:
  pid_t pid_;
  int socket_;
  // Borrows socket_ (released, never closed, by Stop).
  std::unique_ptr<boost::asio::posix::stream_descriptor> channel_;
  std::string program_;
  std::vector<std::string> env_;
  int jobs_ = 0;
  int64_t user_us_ = 0;
  int64_t system_us_ = 0;
};

struct WorkerPoolLimits {
  // Jobs a worker runs before it is replaced (leaks of the user's code
  // stay bounded); >= 1.
  int max_jobs = 1000;
  // Peak resident memory (KiB) after which a worker is replaced; 0 = none.
  int64_t max_rss_kb = 0;
};

class WorkerPool {
 public:
  // `command`: kServeCommand or kForkServerCommand. `launch` (the host's
  // launcher and environment) must outlive the pool.
  WorkerPool(WorkerPoolLimits limits, const char* command,
             const WorkerLaunch* launch)
      : limits_(limits), command_(command), launch_(*launch) {}
  ~WorkerPool() { Clear(); }
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // An idle worker of `program` serving `env`, or a new one started with
  // stderr on `stderr_fd` (its messages outside jobs). Fails as
  // SpawnProcess does.
  StatusOr<std::unique_ptr<PersistentWorker>> Take(
      const std::string& program, const std::vector<std::string>& env,
      int stderr_fd);

  // Keeps a worker that answered its job, unless it reached the limits
  // (then it is stopped). At most `max_idle` are kept: the one idle the
  // longest makes room.
  void Give(std::unique_ptr<PersistentWorker> worker, int64_t max_rss_kb,
            size_t max_idle);

  // Stops every idle worker.
  void Clear();

  size_t idle() const { return idle_.size(); }
  // Workers started since construction; for tests of recycling.
  int started() const { return started_; }

 private:
  WorkerPoolLimits limits_;
  const char* command_;
  const WorkerLaunch& launch_;
  std::vector<std::unique_ptr<PersistentWorker>> idle_;
  int started_ = 0;
};

}  // namespace gs

#endif  // GSRT_ADAPTERS_LOCAL_WORKER_POOL_H_
