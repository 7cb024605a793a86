// The host-link role of the adapter seam: making the host usable, knowing
// whether it still answers, connecting again, releasing it. Part of
// Adapter (adapter.h).
#ifndef GSRT_ADAPTERS_HOST_LINK_H_
#define GSRT_ADAPTERS_HOST_LINK_H_

#include <functional>

#include "runtime/base/clock.h"
#include "runtime/base/status.h"

namespace gs {

// What a host's start is doing, said to the user when it takes long
// (runtime/engine/start_progress.h).
enum class StartPhase { kConnecting, kChecking, kInstalling, kStarting };
using StartPhaseObserver = std::function<void(StartPhase)>;

class HostLink {
 public:
  virtual ~HostLink() = default;

  // The part of the start that blocks without touching the engine's
  // io_context (an ssh login, an install): the engine runs it for several
  // hosts at once, each on a thread of its own, then Connect() for one
  // host after the other. An error here is the host's start error.
  virtual Status Prepare() = 0;
  // Makes the host usable (connect, start agents, check the worker).
  virtual Status Connect() = 0;
  // Told the phase Prepare and Connect are in, from their thread; null:
  // nobody. Set before Prepare; must stay valid while they run.
  virtual void SetStartPhases(StartPhaseObserver observer) = 0;

  // Connects again after a loss, from the engine's thread. `done` fires
  // once.
  virtual void Reconnect(std::function<void(Status)> done) = 0;

  // False once the connection to the host is lost (until a connect
  // succeeds again). Hosts without a connection are always connected.
  virtual bool connected() const = 0;

  // Liveness, for adapters that hear from their host on their own
  // (heartbeats): the clock time of the last message from the host, or -1
  // when the adapter has no such signal (then a connected host counts as
  // up). The runtime calls a host suspect when it is silent for longer than
  // heartbeat_interval() plus some slack, before the adapter gives it up.
  virtual Seconds last_heard() const = 0;
  virtual Seconds heartbeat_interval() const = 0;

  // Cancels what runs and releases the host. Pending job callbacks fire.
  virtual void Shutdown() = 0;
};

}  // namespace gs

#endif  // GSRT_ADAPTERS_HOST_LINK_H_
