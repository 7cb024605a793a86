// The live page's server (GSRT_DASHBOARD=HOST:PORT, runtime.dashboard):
// Boost.Beast HTTP on its own io_context and thread, so a slow or stuck
// browser never holds the engine. Serves the page and its script and style
// (compiled in: nothing comes from the internet), /state (a JSON snapshot
// of DashboardState) and /events (server-sent events: a snapshot whenever
// the state changed, at most every `interval`; a browser that has not
// taken the previous one is skipped, never queued for).
//
// Loopback addresses need no token. Any other address gets a random token
// that every request must carry (?token=...), printed in the URL at start.
#ifndef GSRT_RUNTIME_DASHBOARD_DASHBOARD_SERVER_H_
#define GSRT_RUNTIME_DASHBOARD_DASHBOARD_SERVER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "runtime/base/status.h"
#include "runtime/dashboard/dashboard_state.h"

namespace gs {

struct DashboardOptions {
  std::string host = "127.0.0.1";
  uint16_t port = 0;       // 0: any free port
  double interval = 0.25;  // seconds between pushes at most
  // The engine's clock, for the snapshot's elapsed time and estimate.
  std::function<Seconds()> now;
};

// Parses "HOST:PORT" ("[::1]:8080" for IPv6); the error names `what`.
StatusOr<DashboardOptions> ParseDashboardAddress(const std::string& text,
                                                 const std::string& what);

class DashboardServer {
 public:
  static StatusOr<std::unique_ptr<DashboardServer>> Start(
      std::shared_ptr<const DashboardState> state, DashboardOptions options);
  // Stops serving and joins the thread.
  ~DashboardServer();
  DashboardServer(const DashboardServer&) = delete;
  DashboardServer& operator=(const DashboardServer&) = delete;

  // http://HOST:PORT/ (with ?token=... when one is needed).
  std::string url() const;
  uint16_t port() const;

  struct Impl;

 private:
  explicit DashboardServer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace gs

#endif  // GSRT_RUNTIME_DASHBOARD_DASHBOARD_SERVER_H_
