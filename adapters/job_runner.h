// The running-jobs role of the adapter seam: start a job, stop it, say how
// many more the host takes. Part of Adapter (adapter.h).
#ifndef GSRT_ADAPTERS_JOB_RUNNER_H_
#define GSRT_ADAPTERS_JOB_RUNNER_H_

#include <functional>

#include "adapters/job.h"

namespace gs {

class JobRunner {
 public:
  using DoneCallback = std::function<void(JobReport)>;

  virtual ~JobRunner() = default;

  // Starts `spec`. `done` is called exactly once, later (never from inside
  // Submit), with the job's outcome.
  virtual void Submit(JobSpec spec, DoneCallback done) = 0;

  // Asks the job to stop; its `done` still fires once (with Cancelled if it
  // was stopped in time, otherwise with whatever it ended with).
  virtual void Cancel(JobId id) = 0;

  // How many more jobs the host takes now.
  virtual int FreeSlots() const = 0;
};

}  // namespace gs

#endif  // GSRT_ADAPTERS_JOB_RUNNER_H_
