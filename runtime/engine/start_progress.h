// What GS_On says while its hosts start: nothing about a host ready within
// `quiet_for`; past that, the phase it is in (connecting, checking,
// installing, starting the agent), each new phase as it comes, and how long
// the start took. A host prepared and waiting for the others' Prepare is
// paused: its wait is not its own slowness. Pure: the caller gives the
// times and says the lines (start_watch.h does both on a real clock).
#ifndef GSRT_RUNTIME_ENGINE_START_PROGRESS_H_
#define GSRT_RUNTIME_ENGINE_START_PROGRESS_H_

#include <limits>
#include <string>
#include <vector>

#include "adapters/host_link.h"
#include "runtime/base/clock.h"

namespace gs {

class StartProgress {
 public:
  explicit StartProgress(Seconds quiet_for = 1) : quiet_for_(quiet_for) {}

  // Host `name` (an adapter of `kind`) starts at `now`; returns its index.
  size_t Begin(std::string name, std::string kind, Seconds now);
  // Each returns the lines (ending in '\n') to say at once.
  std::vector<std::string> Phase(size_t host, StartPhase phase);
  // Waiting for the others: silent until Resume, which restarts its quiet
  // time.
  void Pause(size_t host);
  void Resume(size_t host, Seconds now);
  std::vector<std::string> End(size_t host, bool ok, Seconds now);
  // The hosts whose quiet time has run out by `now`.
  std::vector<std::string> Tick(Seconds now);
  // When Tick next has something to say; infinity when nothing will.
  Seconds NextDue() const;

 private:
  struct Host {
    std::string name, kind;
    Seconds begun = 0;   // the start's beginning
    Seconds active = 0;  // since when it runs unpaused
    StartPhase phase = StartPhase::kConnecting;
    bool paused = false, announced = false, ended = false;
  };
  std::string PhaseLine(const Host& h) const;

  const Seconds quiet_for_;
  std::vector<Host> hosts_;
};

}  // namespace gs

#endif  // GSRT_RUNTIME_ENGINE_START_PROGRESS_H_
