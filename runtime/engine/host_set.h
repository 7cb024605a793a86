// The hosts of a run: each host's adapter, capacity, load, reconnect and
// sweep state, and what the engine decides from them alone (health, the
// policies' view of capacity, the order replication tries them). Owned by
// the Engine; not locked by itself: every call is made with the engine's
// mutex held (Engine::hosts_ is GUARDED_BY it), from the engine thread or
// the master's. The HostSweeper (host_sweeper.h) keeps GS_Off's sweep.
#ifndef GSRT_RUNTIME_ENGINE_HOST_SET_H_
#define GSRT_RUNTIME_ENGINE_HOST_SET_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "adapters/adapter.h"
#include "runtime/base/clock.h"
#include "runtime/jobs/gpu_pool.h"
#include "runtime/observe/slot_occupancy.h"
#include "runtime/sched/host_health.h"
#include "runtime/sched/learned_availability.h"
#include "runtime/sched/policies_ft.h"
#include "runtime/sched/scheduler.h"

namespace gs {

struct HostEntry {
  std::string name;
  std::string worker;
  std::unique_ptr<Adapter> adapter;
  bool usable = true;
  bool shared = true;    // sees the master's files at the same paths
  std::string data_dir;  // version files on the host when not shared
  uint64_t running = 0;  // jobs placed here and not finished
  // Of those, which hold slots and which wait in the host's queue.
  SlotOccupancy occupancy;
  uint64_t staging = 0;  // of which still waiting for their inputs
  // The same in cores (a job holds its operation's ComputingUnits).
  uint64_t running_cores = 0;
  uint64_t staging_cores = 0;
  // Capacity: cores, memory (GB, 0: not limited) and GPUs (which job
  // holds each).
  int cores = 1;
  double memory_gb = 0;
  GpuPool gpus;
  // Jobs queued there beyond its slots (runtime/sched/prefetch.h), at
  // least; more when its jobs are short (prefetch_window).
  int prefetch = 0;
  Seconds prefetch_window = 0;
  // Recent mean run time of its jobs (exponential, from their reports);
  // 0 before the first ends.
  Seconds mean_job = 0;
  // Taken from the adapter rather than gsrt.yaml, so followed as the host
  // changes (pilots sized by their allocations come and go).
  bool learns_cores = false;
  bool learns_memory = false;
  // After a loss (host_monitor.h): the next reconnect attempt, its delay
  // (doubling), why the last one failed ("": none yet) and whether one is
  // under way.
  struct Reconnect {
    std::unique_ptr<Timer> timer;
    Seconds delay = 0;
    std::string error;
    bool under_way = false;
  } reconnect;
  // Lost with what the run put there (copies, sandboxes): swept when it is
  // back (host_sweeper.h).
  bool left_behind = false;
  bool final_try = false;   // GS_Off waits for this host's last attempt
  bool confirming = false;  // GS_Off waits for its answer after removals
  // Jobs that ended here and how many of them succeeded (the host's
  // success rate, for WQDR-FT's host order).
  uint64_t jobs_finished = 0;
  uint64_t jobs_ok = 0;
};

class HostSet : public HostHealth {
 public:
  using Entries = std::vector<std::unique_ptr<HostEntry>>;

  // A host silent for longer than its heartbeat interval plus `rtt_bound`
  // is suspect.
  explicit HostSet(Seconds rtt_bound) : rtt_bound_(rtt_bound) {}

  // The run's clock (set once, before the first health question).
  void set_clock(const Clock* clock) { clock_ = clock; }

  void Add(std::unique_ptr<HostEntry> host);
  size_t size() const { return hosts_.size(); }
  HostEntry* operator[](HostId h) const { return hosts_[h].get(); }
  Entries::const_iterator begin() const { return hosts_.begin(); }
  Entries::const_iterator end() const { return hosts_.end(); }
  // Some host queues jobs beyond its slots (rounds then prefetch).
  bool any_prefetch() const { return any_prefetch_; }

  // Up, suspect or down, from the adapter's connection and heartbeats.
  HealthState HealthOf(HostId h) const;
  // HostHealth, for the fault-tolerant policies: up.
  bool Alive(HostId h) const override {
    return HealthOf(h) == HealthState::kUp;
  }
  // A host turned suspect, or answers again after being suspect, since the
  // last call (down and back are the reconnects' to tell).
  struct HealthChange {
    HostId host;
    HealthState now;
    std::string line;  // what the user is told
  };
  std::vector<HealthChange> TakeHealthChanges();

  // The volatile policies' availability model (null with other policies).
  void set_availability(std::unique_ptr<LearnedAvailability> model) {
    availability_ = std::move(model);
  }
  LearnedAvailability* availability() const { return availability_.get(); }
  // One observation of every host's state (a slot of the model).
  void ObserveAvailability();
  // A host lost or back, at once.
  void ObserveChange(HostId h, HostAvail state);

  // Cores and memory from the adapter, for hosts gsrt.yaml does not size
  // (`free_slots`: the adapter's FreeSlots() when the caller has it).
  static void LearnCapacity(HostEntry& host,
                            std::optional<int> free_slots = std::nullopt);
  // The host's slots (in cores), as running and queued are counted against
  // them (slot_occupancy.h): gsrt.yaml's, else what its adapter offers; 0
  // when it tells only its free slots (nothing is sent it ahead: prefetch
  // wants ssh, whose agent tells its slots).
  static int Slots(const HostEntry& host);
  // `host`'s state as the policies see it, without its jobs.
  static void FillHostState(const HostEntry& host, int free_slots,
                            HostState* state);
  void HostStates(std::vector<HostState>* states) const;
  // The same, learning the capacity of hosts that follow their adapter.
  void LearnHostStates(std::vector<HostState>* states);
  // Some usable host's adapter has a free slot now.
  bool AdaptersOfferSlots() const;
  // No host's expected start delay (a queue's wait) could move on its own.
  bool TransfersStable() const;
  // The order placement and replication try hosts: by success rate, best
  // first, when `by_success` (WQDR-FT); index order otherwise.
  std::vector<HostId> Order(bool by_success) const;

 private:
  const Seconds rtt_bound_;
  const Clock* clock_ = nullptr;
  Entries hosts_;
  bool any_prefetch_ = false;
  std::vector<HealthState> health_seen_;  // last state told, per host
  std::unique_ptr<LearnedAvailability> availability_;
};

}  // namespace gs

#endif  // GSRT_RUNTIME_ENGINE_HOST_SET_H_
