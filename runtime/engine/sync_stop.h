// The message of a synchronous call that cannot return (its task failed or
// was not run): what happened, why the program stops there, and what to do.
// A master interrupted by a signal says so in its own words (OnSignal), so
// the two are never confused. Pure formatting.
#ifndef GSRT_RUNTIME_ENGINE_SYNC_STOP_H_
#define GSRT_RUNTIME_ENGINE_SYNC_STOP_H_

#include <cstdint>
#include <string>

namespace gs {

struct SyncStop {
  uint32_t task = 0;
  std::string operation;
  std::string call;  // call_text.h
  // Failed: its last error. Not run: a file it reads was never written.
  bool not_run = false;
  std::string error;
  // Not run: the file it waited for, and the failed task behind it (when
  // found; `cause_operation` empty otherwise).
  std::string missing_file;
  uint32_t cause_task = 0;
  std::string cause_operation;
};

// "stopping the program: task 7 (count) failed (count threw: boom), so
// count(in.txt) has no value to return ...", one paragraph without a
// trailing newline.
std::string FormatSyncStop(const SyncStop& stop);

// The master was stopped by signal `sig` (SIGINT or SIGTERM) with
// `running` jobs, which it stopped.
std::string SignalStopMessage(int sig, uint64_t running);

}  // namespace gs

#endif  // GSRT_RUNTIME_ENGINE_SYNC_STOP_H_
