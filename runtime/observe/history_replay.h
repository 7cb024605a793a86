// Plays a recorded run back from the history to a run observer, in the
// order it happened (attempts and transfers as they ended), so that what
// watched the run live (the trace) can be rebuilt afterwards: `gsrt trace`.
#ifndef GSRT_RUNTIME_OBSERVE_HISTORY_REPLAY_H_
#define GSRT_RUNTIME_OBSERVE_HISTORY_REPLAY_H_

#include "runtime/base/status.h"
#include "runtime/history/history.h"
#include "runtime/observe/run_observer.h"

namespace gs {

Status ReplayRun(History& history, RunId run, RunObserver* observer);

}  // namespace gs

#endif  // GSRT_RUNTIME_OBSERVE_HISTORY_REPLAY_H_
