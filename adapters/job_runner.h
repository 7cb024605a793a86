// The running-jobs role of the adapter seam: start a job, stop it, say how
// many more the host takes. Part of Adapter (adapter.h).
#ifndef GSRT_ADAPTERS_JOB_RUNNER_H_
#define GSRT_ADAPTERS_JOB_RUNNER_H_

#include <functional>
#include <vector>

#include "runtime/jobs/job.h"
#include "runtime/jobs/queued_job.h"

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

  // Ready tasks the engine found no free slot for in its latest round, on
  // any host (0 once every ready task is placed); told when it becomes
  // non-zero or zero, doubles or halves, so an estimate in between. A
  // host that can grow (pilot mode with max_pilots) adds capacity from it;
  // the others ignore it. Only records: no batch command runs inside it.
  virtual void NoteBacklog(int tasks) = 0;

  // Resuming after a master crash: `job` is a batch job the interrupted
  // master submitted for the same task, and `spec` what this run would
  // submit. The adapter takes the job over if it can: its exit record is
  // its result, or, while the queue lists it, it is watched like a job of
  // this run; a job the queue lost is run again from `spec`. Hosts
  // without batch jobs just Submit(spec). `done` as for Submit, with
  // spec.id.
  virtual void Adopt(QueuedJob job, JobSpec spec, DoneCallback done) = 0;

  // Batch jobs an interrupted master left (pilots, or jobs no task of this
  // run takes over): removed from the queue. A no-op for other hosts.
  virtual void Forget(std::vector<QueuedJob> jobs) = 0;
};

}  // namespace gs

#endif  // GSRT_ADAPTERS_JOB_RUNNER_H_
