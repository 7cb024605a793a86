#include "runtime/engine/sync_stop.h"

#include <signal.h>

namespace gs {

std::string FormatSyncStop(const SyncStop& s) {
  std::string task =
      "task " + std::to_string(s.task) + " (" + s.operation + ")";
  std::string what;
  if (!s.not_run) {
    what = task + " failed (" + s.error + ")";
  } else {
    what = task + " was not run: " +
           (s.missing_file.empty() ? std::string("a file it reads")
                                   : s.missing_file) +
           " was never written";
    if (!s.cause_operation.empty()) {
      what += " because task " + std::to_string(s.cause_task) + " (" +
              s.cause_operation + ") failed";
    }
  }
  const std::string call = s.call.empty() ? s.operation + "()" : s.call;
  return "stopping the program: " + what + ", so the call " + call +
         " has no value to return and the code after it cannot run. The "
         "tasks already submitted finish and the summary below shows each "
         "failure with its error and logs; fix the cause and run the "
         "program again (README, \"When things fail\").";
}

std::string SignalStopMessage(int sig, uint64_t running) {
  const std::string by = sig == SIGINT ? "interrupted by SIGINT (Ctrl-C)"
                         : sig == SIGTERM
                             ? "interrupted by SIGTERM"
                             : "interrupted by signal " + std::to_string(sig);
  return "stopping the program: " + by + "; no task failed. Stopped " +
         std::to_string(running) +
         " running jobs; your files are as they were before the run. Run "
         "the program again in this directory to go on: the tasks that "
         "finished are reused (README, \"When things fail\").";
}

}  // namespace gs
