// A decorator for the runner of a batch job's agent. When a batch system
// cancels a job (scancel, qdel, the walltime) it signals every process of
// the job at once: the worker may die of the signal a moment before the
// agent itself hears of it, and its "exit 143" would reach the master as
// an application failure. Reports of workers killed by SIGTERM, SIGKILL,
// SIGINT or SIGHUP are therefore held for a short grace period: if the
// agent is stopped meanwhile (Shutdown), they are never sent, and the
// master sees the pilot or job lost (an infrastructure failure); if not,
// they go out as they were. Everything else is the wrapped runner's.
#ifndef GSRT_ADAPTERS_BATCH_NODE_SIGNAL_GRACE_H_
#define GSRT_ADAPTERS_BATCH_NODE_SIGNAL_GRACE_H_

#include <map>
#include <memory>

#include "adapters/adapter_wrapper.h"
#include "runtime/base/clock.h"

namespace gs {

class SignalGraceAdapter : public AdapterWrapper {
 public:
  // `inner` and `clock` must outlive this object.
  SignalGraceAdapter(Adapter& inner, Clock& clock, Seconds grace = 2);
  ~SignalGraceAdapter() override;

  // A held report keeps its job's slot.
  int FreeSlots() const override;
  void Submit(JobSpec spec, DoneCallback done) override;
  // Held reports are dropped into Cancelled (the caller is stopping).
  void Shutdown() override;

  // True for an outcome that a batch system's kill signal may have caused.
  static bool KilledBySignal(const JobOutcome& outcome);

 private:
  struct Held {
    JobReport report;
    DoneCallback done;
    std::unique_ptr<Timer> timer;
  };
  Clock& clock_;
  Seconds grace_;
  std::map<JobId, Held> held_;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace gs

#endif  // GSRT_ADAPTERS_BATCH_NODE_SIGNAL_GRACE_H_
