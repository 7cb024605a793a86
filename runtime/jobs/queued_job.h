// A batch job an adapter put in its queue, as the engine records it so
// that a master started again after a crash can take the job over
// (docs/design.md, "Resume"): the batch system's id, and where the job
// leaves its exit record. Plain data, no I/O.
#ifndef GSRT_RUNTIME_JOBS_QUEUED_JOB_H_
#define GSRT_RUNTIME_JOBS_QUEUED_JOB_H_

#include <functional>
#include <string>
#include <vector>

#include "runtime/jobs/job.h"

namespace gs {

struct QueuedJob {
  // The gsrt job it runs and its task; 0 and 0 for a pilot, which runs an
  // agent rather than one job.
  JobId job = 0;
  TaskId task = 0;
  // As the queue listing shows it ("123_4"); "" while being submitted.
  std::string batch_id;
  std::string name;  // the batch job name (listings filter by it)
  std::string dir;   // batch directory: DIR/record.<index> is its fate
  int index = 0;     // element of its array (0 for a single job)
  // Taken over from an earlier master rather than submitted by this one.
  bool adopted = false;
  // A gsrt job that the pilot `batch_id` runs (not a batch job of its
  // own): a master started after a crash takes it over when the pilot
  // comes back to it.
  bool in_pilot = false;
};

// Records batch jobs about to be submitted (batch_id "": `dir` and
// `index` say which element) and returns once they are durable, so that a
// master killed inside the submission finds them when started again
// (adapters/batch/node/batch_claim.h).
using SubmissionRecorder = std::function<void(const std::vector<QueuedJob>&)>;

}  // namespace gs

#endif  // GSRT_RUNTIME_JOBS_QUEUED_JOB_H_
