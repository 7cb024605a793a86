// The learning role of the adapter seam: what an adapter learns of its host
// while it runs (batch queue waits). Adapters never write the history
// themselves: the engine takes what they learned and records it. Part of
// Adapter (adapter.h).
#ifndef GSRT_ADAPTERS_HOST_KNOWLEDGE_H_
#define GSRT_ADAPTERS_HOST_KNOWLEDGE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/base/clock.h"
#include "runtime/jobs/queued_job.h"

namespace gs {

// How long one batch job waited in its queue (submitted -> started).
struct QueueWaitSample {
  std::string partition;  // "" for the site's default
  Seconds submitted = 0;
  Seconds started = 0;
  // The job's size: what the queue ordered it by (queue_wait_estimate.h).
  int cores = 1;  // per node
  int nodes = 1;
  Seconds walltime = 0;  // its time limit; 0: the partition's default
};

class HostKnowledge {
 public:
  virtual ~HostKnowledge() = default;

  // Queue waits seen since the last call (batch hosts), for the engine to
  // record.
  virtual std::vector<QueueWaitSample> TakeQueueWaits() = 0;

  // Batch jobs queued (or taken over) since the last call, for the engine
  // to record: a master started again after a crash finds them there.
  virtual std::vector<QueuedJob> TakeQueuedJobs() = 0;

  // Given by an engine that keeps a journal: a batch adapter calls it with
  // the jobs it is about to submit, before submitting them (queued_job.h).
  virtual void RecordSubmissionsWith(SubmissionRecorder record) = 0;

  // Seconds a job submitted now is expected to wait before it starts (a
  // batch queue's wait, learnt from earlier jobs); 0 for hosts that start
  // jobs at once. The scheduler adds it to its predictions.
  virtual Seconds expected_start_delay() const = 0;

  // Bytes of memory the host's jobs can hold together, as the host told
  // (the agent's HELLO, the local machine's MemTotal); 0 when unknown. The
  // engine takes it as the host's memory capacity when gsrt.yaml gives
  // none.
  virtual uint64_t memory_capacity() const = 0;

  // Cores the host offers now, when it learned them itself (the pilots of
  // a batch host, sized by their allocations); 0 when its configured slots
  // say it. The engine takes it, and follows its changes, for a host whose
  // gsrt.yaml gives no `slots`.
  virtual int core_capacity() const = 0;

  // GPUs the host offers now, when it learned them itself (the pilots of a
  // batch host: the devices their allocations show, which each pilot's
  // agent hands to its jobs); 0 otherwise. The engine follows it for such
  // a host.
  virtual int gpu_capacity() const = 0;
};

}  // namespace gs

#endif  // GSRT_ADAPTERS_HOST_KNOWLEDGE_H_
