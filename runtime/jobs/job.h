// What an adapter is asked to run (JobSpec) and what it reports back
// (JobReport with a JobOutcome variant). Plain data, no I/O.
#ifndef GSRT_RUNTIME_JOBS_JOB_H_
#define GSRT_RUNTIME_JOBS_JOB_H_

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "runtime/base/clock.h"

namespace gs {

using JobId = uint64_t;
using TaskId = uint32_t;

// One parameter of a job, in the order of the operation's IDL parameters.
struct JobParam {
  enum class Kind : uint8_t {
    kScalar,       // `value` is the encoded scalar or string (in)
    kOutScalar,    // nothing to pass: the worker reports the value (out)
    kInOutScalar,  // `value` is the encoded input value
    kFileIn,       // `source` is the path of the input version on the host
    kFileOut,      // `dest` is where the new version goes after success
    kFileInOut,    // both: the worker edits a copy of `source`
  };
  Kind kind = Kind::kScalar;
  std::string value;
  std::string source;
  std::string dest;
};

struct JobSpec {
  JobId id = 0;
  TaskId task = 0;
  std::string operation;
  std::vector<JobParam> params;
  // Absolute path of the worker executable on the host.
  std::string worker;
  // Seconds; 0 means no limit.
  Seconds timeout = 0;
  // "NAME=value" entries set for this job only, on top of the worker's
  // environment (a persistent worker undoes them before the next job).
  std::vector<std::string> env;
  // What the job holds on its host (its operation's @Constraints): cores
  // out of the host's slots (FreeSlots() counts cores) and memory in GB
  // (0: none reserved). The worker of a k-core job gets OMP_NUM_THREADS=k
  // unless the user set it.
  int cores = 1;
  double memory_gb = 0;
  // GPUs the job holds (@Constraints(GPUs=k)). Where the master assigns the
  // devices, `env` names them; a batch host in job mode asks the queue for
  // this many instead.
  int gpus = 0;
  // An MPI job (@MPI): the nodes it spans, cores / nodes ranks on each; a
  // batch host in job mode asks the queue for that shape (--nodes,
  // --ntasks-per-node). 0: not an MPI job.
  int nodes = 0;
};

// Resource use of a finished worker.
struct Usage {
  Seconds user_cpu = 0;
  Seconds system_cpu = 0;
  int64_t max_rss_kb = 0;
};

// The worker ran and exited. `code` 0 with every declared output present is
// success; anything else is an application failure.
struct Exited {
  int code = 0;
  // Encoded return value and out/inout scalars, one per line (see
  // runtime/base/scalar_codec.h), in IDL order, return value first.
  std::string results;
  Usage usage;
  uint64_t bytes_in = 0;
  uint64_t bytes_out = 0;
  // Empty on success; otherwise what went wrong ("exit code 3",
  // "declared output 'c' was not written").
  std::string error;
  // Where the job's stdout/stderr were kept ("" when nothing was kept).
  std::string log_dir;
  // For messages, about log_dir on a host that does not share the master's
  // files: where the logs were fetched from ("fetched from host 'n2':
  // PATH"), or why they are still only there. Master-side, never sent.
  std::string log_note;
  bool succeeded() const { return code == 0 && error.empty(); }
};

// The host or the connection to it failed; the job's fate is unknown.
struct HostFailed {
  std::string reason;
};

// The job ran longer than its timeout and was killed.
struct TimedOut {
  Seconds limit = 0;
  // Where what the job left before it was killed (stdout, stderr, its
  // sandbox) was kept; "" when nothing was.
  std::string log_dir;
  std::string log_note;  // as Exited::log_note
};

// The runtime cancelled the job.
struct Cancelled {};

using JobOutcome = std::variant<Exited, HostFailed, TimedOut, Cancelled>;

struct JobReport {
  JobId id = 0;
  JobOutcome outcome;
  Seconds submitted = 0;
  Seconds started = 0;
  Seconds ended = 0;
};

}  // namespace gs

#endif  // GSRT_RUNTIME_JOBS_JOB_H_
