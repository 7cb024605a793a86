// The master's outgoing link of paper 002 (section III, the bounded
// multi-port model): it sends to at most n_com hosts at once, each transfer
// at the same rate, so a transfer of T seconds takes T seconds of its own
// once it has a channel. Transfers wait for a channel in the order they
// were asked for. A transfer to a RECLAIMED host is suspended and keeps its
// channel (the paper: "the communication is temporarily suspended"); one to
// a DOWN host is dropped by the caller, which also loses what it carried.
//
// Runs on the simulation's clock, on the engine's thread only.
#ifndef GSRT_ADAPTERS_SIMULATED_SIM_MASTER_LINK_H_
#define GSRT_ADAPTERS_SIMULATED_SIM_MASTER_LINK_H_

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <vector>

#include "runtime/base/clock.h"

namespace gs {

class SimMasterLink {
 public:
  using Id = uint64_t;  // 0 is never an id

  // n_com = 0: no bound.
  SimMasterLink(Clock* clock, uint32_t n_com) : clock_(clock), n_com_(n_com) {}

  // Sends `seconds` of transfer to `host`; `done` runs when it has all
  // arrived (from a clock timer, never from inside this call).
  Id Send(uint32_t host, Seconds seconds, std::function<void()> done);
  // Forgets a transfer, queued or under way; its channel goes to the next.
  void Drop(Id id);
  // Whether `host` can receive: transfers to it progress only while UP.
  void SetHostUp(uint32_t host, bool up);

  size_t active() const { return active_; }
  size_t queued() const { return queue_.size(); }

 private:
  struct Transfer {
    uint32_t host = 0;
    Seconds remaining = 0;
    Seconds since = -1;  // start of the current stretch; -1 when paused
    bool has_channel = false;
    std::function<void()> done;
    std::unique_ptr<Timer> timer;
  };
  bool Up(uint32_t host) const { return host >= up_.size() || up_[host]; }
  void Pause(Transfer& t);
  void Resume(Id id, Transfer& t);
  void Finish(Id id);
  // Gives free channels to queued transfers, in order.
  void Admit();

  Clock* clock_;
  uint32_t n_com_;
  Id next_ = 1;
  size_t active_ = 0;  // transfers holding a channel
  std::map<Id, Transfer> transfers_;
  std::deque<Id> queue_;
  std::vector<bool> up_;
};

}  // namespace gs

#endif  // GSRT_ADAPTERS_SIMULATED_SIM_MASTER_LINK_H_
