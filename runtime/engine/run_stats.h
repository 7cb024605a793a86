// Counters of a run and the text shown to the user about them: the
// progress line and the summary at GS_Off. Pure formatting.
#ifndef GSRT_RUNTIME_ENGINE_RUN_STATS_H_
#define GSRT_RUNTIME_ENGINE_RUN_STATS_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "runtime/base/clock.h"
#include "runtime/jobs/job.h"

namespace gs {

struct TaskFailure {
  TaskId task = 0;
  std::string operation;
  // The call as the program made it (call_text.h); "" when unknown.
  std::string call;
  std::string error;
  std::string log_dir;
  int attempts = 0;
  // Where the logs came from when the job ran elsewhere (Exited::log_note).
  std::string log_note;
};

struct RunStats {
  uint64_t submitted = 0;
  uint64_t done = 0;
  uint64_t running = 0;  // tasks with a job out, queued_on_hosts included
  // Jobs sent ahead (prefetch) that wait in their host's queue for a slot
  // (runtime/observe/slot_occupancy.h).
  uint64_t queued_on_hosts = 0;
  uint64_t failed = 0;
  uint64_t futile = 0;  // not run: an input was never produced
  // Stopped by the run's end (a signal): neither failed nor done.
  uint64_t cancelled = 0;
  uint64_t jobs = 0;
  uint64_t retries = 0;
  // Replicas started (paper 001) and how many of them finished first.
  uint64_t replicas = 0;
  uint64_t replica_wins = 0;
  // Done without running: adopted from an interrupted run's journal.
  uint64_t reused = 0;
  // Done without running: their results came from the store, left by an
  // earlier run of the work dir (reuse on; result_cache.h).
  uint64_t reused_earlier = 0;
  // Batch jobs of the interrupted run taken over (not run again).
  uint64_t adopted = 0;
  // Journaled by the interrupted run but run again: its worker differs.
  uint64_t rerun_changed = 0;
  // Final versions that could not be put under the user's file name.
  uint64_t lost_outputs = 0;
  // Host losses and what recovering from them rewound (paper 000): RT
  // summed over the losses, LR the largest of them.
  uint64_t hosts_lost = 0;
  uint64_t rewound_tasks = 0;
  uint64_t rewound_levels = 0;
  std::map<std::string, uint64_t> jobs_per_host;
  std::vector<TaskFailure> failures;
  std::vector<std::string> notes;

  uint64_t waiting() const {
    return submitted - done - running - failed - futile - cancelled;
  }
  bool all_finished() const {
    return done + failed + futile + cancelled == submitted;
  }
};

// "gsrt: 120 done, 2 running, 30 waiting, 0 failed"; with jobs queued on
// hosts, "2 running, 4 queued on hosts, 26 waiting" (running: in a slot);
// with results reused from earlier runs, "120 done (100 reused)".
std::string FormatProgress(const RunStats& stats);

// Several lines: totals, jobs per host, each failed task with its last
// error and where its logs are, and notes.
std::string FormatSummary(const RunStats& stats, Seconds elapsed);

}  // namespace gs

#endif  // GSRT_RUNTIME_ENGINE_RUN_STATS_H_
