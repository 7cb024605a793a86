// Waits, without blocking, until the queue lists none of some batch jobs
// just cancelled: it lists them at once, then again every 0.1 s on the
// Clock's timers, for at most 3 s, and then calls `done` (also when some
// are still listed: what comes back after the bound is left).
//
// Why: a pilot cancelled while its job was starting gets its output file
// written by the batch system after the cancel ("CANCELLED"); removed
// before the job left the queue, the file would come back.
//
// Owned by PilotFleet; Start and the timers run on the Clock's thread (the
// engine's). An unreadable listing counts as listed: it is asked again.
#ifndef GSRT_ADAPTERS_BATCH_UNLISTED_WAIT_H_
#define GSRT_ADAPTERS_BATCH_UNLISTED_WAIT_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "adapters/batch/batch_commands.h"
#include "runtime/base/clock.h"

namespace gs {

class UnlistedWait {
 public:
  // A batch job and the name the queue lists it under.
  struct Job {
    std::string batch_id;
    std::string job_name;
  };
  // Lists job names (ListByJobName over the host's commands; a fake in
  // tests). Called on the Clock's thread; it may block (a queue command).
  using Lister =
      std::function<QueueListings(const std::vector<std::string>& names)>;

  static constexpr Seconds kBound = 3;
  static constexpr Seconds kPollInterval = 0.1;

  // `clock` and what `list` uses must outlive the wait.
  UnlistedWait(Clock& clock, Lister list, std::vector<Job> jobs);
  // Cancels the timer; `done` is not called.
  ~UnlistedWait();
  UnlistedWait(const UnlistedWait&) = delete;
  UnlistedWait& operator=(const UnlistedWait&) = delete;

  // Lists at once; `done` runs inside Start when none is listed (or there
  // is no job), else from a timer later. `done` may destroy the wait.
  void Start(std::function<void()> done);
  // Between Start and `done`.
  bool waiting() const { return waiting_; }
  // For when the Clock's loop stopped before the wait ended (the engine
  // stops it right after Shutdown): ends the wait on a loop and a clock of
  // its own, within the same bound, on the calling thread, which must not
  // be the engine's (its destructor's, after the engine thread ended).
  void FinishOnOwnLoop();

 private:
  void Poll();
  bool AnyListed();
  void Finish();

  Clock* clock_;  // the engine's; FinishOnOwnLoop's own while it runs
  Lister list_;
  std::vector<Job> jobs_;
  std::function<void()> done_;
  std::unique_ptr<Timer> timer_;
  Seconds deadline_ = 0;
  bool waiting_ = false;
};

}  // namespace gs

#endif  // GSRT_ADAPTERS_BATCH_UNLISTED_WAIT_H_
