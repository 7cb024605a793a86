// The simulated platform behind the `sim` adapter: hosts with slots, a
// link to the master (latency, bandwidth), a batch queue wait, and an
// availability process (a trace of state changes or a 3-state Markov chain
// UP / RECLAIMED / DOWN, paper 002). What a job costs comes from a
// SimWorkModel. Everything runs on the engine's Clock (a VirtualClock in
// simulations), so a run is deterministic for a seed.
//
// One SimWorld serves all the hosts of a run; each host gets its own
// SimAdapter (adapters/simulated/sim_adapter.h) from MakeAdapter().
#ifndef GSRT_ADAPTERS_SIMULATED_SIM_WORLD_H_
#define GSRT_ADAPTERS_SIMULATED_SIM_WORLD_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "adapters/adapter.h"
#include "runtime/base/clock.h"
#include "runtime/base/status.h"

namespace gs {

enum class SimAvail : uint8_t { kUp = 0, kReclaimed = 1, kDown = 2 };

std::string_view SimAvailName(SimAvail a);

// A discrete-time Markov chain over {UP, RECLAIMED, DOWN}: p[i][j] is the
// probability of moving from state i to state j at the end of a time slot
// of `slot` seconds (paper 002, section IV). Rows sum to 1.
struct MarkovAvailability {
  double p[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  Seconds slot = 1;
};

struct SimHostSpec {
  std::string name;
  int slots = 1;
  Seconds latency = 0;     // per transfer to or from the master
  double bandwidth = 0;    // bytes/s of the master link; 0 = instantaneous
  Seconds queue_wait = 0;  // before each job starts (a batch queue)
  // State changes at given times, ascending; the host starts UP.
  std::vector<std::pair<Seconds, SimAvail>> trace;
  // When set, the trace is ignored and the chain drives the host.
  std::optional<MarkovAvailability> markov;
};

// What jobs cost. Implementations are read-only during a run.
class SimWorkModel {
 public:
  virtual ~SimWorkModel() = default;
  // Seconds `spec` computes on host `host` while the host is UP.
  virtual Seconds ExecTime(const JobSpec& spec, uint32_t host) const = 0;
  // Bytes of the output at parameter position `param` (a kFileOut or
  // kFileInOut parameter of `spec`).
  virtual uint64_t OutputBytes(const JobSpec& spec, size_t param) const {
    return 0;
  }
  // Jobs with the same non-empty gang key are tightly coupled (paper 002):
  // they compute only while all of them have started and all their hosts
  // are UP; a DOWN member loses the work of all. `size` members in all.
  struct Gang {
    std::string key;
    uint32_t size = 0;
  };
  virtual Gang GangOf(const JobSpec& spec) const { return {}; }
};

// One finished job, when SimStats::record_jobs is set.
struct SimJobRecord {
  std::string operation;
  TaskId task = 0;  // the engine's task (JobSpec::task)
  uint32_t host = 0;
  Seconds started = 0;
  Seconds ended = 0;
};

// Paper 002's communication phase (section III): before a job computes, its
// host needs the program (once, until it goes DOWN) and the job's data,
// each sent by the master, which talks to at most n_com hosts at once
// (adapters/simulated/sim_master_link.h). A transfer progresses only while its
// host is UP; a host that goes DOWN loses the program and what it was
// receiving. A host keeps the data of an iteration (a gang key) it received
// until it goes DOWN or the iteration completes: a task of the iteration
// placed on it again (the gang was stopped) uses that data instead of
// receiving it (paper 002, section III: x_q - x'_q messages). All 0: jobs
// compute as soon as they leave the queue.
struct SimCommunication {
  Seconds program = 0;  // T_prog, seconds
  Seconds data = 0;     // T_data per job, seconds
  uint32_t n_com = 0;   // 0: no bound
};

// Counters of a simulated run.
struct SimStats {
  bool record_jobs = false;  // fill `jobs` (successful jobs, in end order)
  std::vector<SimJobRecord> jobs;
  uint64_t jobs_started = 0;
  uint64_t jobs_done = 0;
  uint64_t jobs_failed = 0;  // ended by a host going DOWN (or found down)
  uint64_t jobs_cancelled = 0;
  uint64_t host_downs = 0;  // UP/RECLAIMED -> DOWN transitions
  uint64_t transfers = 0;
  uint64_t bytes_moved = 0;
  // Paper 002's sends of the program and of job data that arrived.
  uint64_t program_sends = 0;
  uint64_t data_sends = 0;
  uint64_t data_reused = 0;   // jobs that used data their host held
  Seconds useful_cpu = 0;     // slot-seconds of computation that succeeded
  Seconds wasted_cpu = 0;     // slot-seconds of computation lost or cancelled
  Seconds last_job_end = 0;   // the makespan of the jobs
  uint64_t events = 0;        // simulation events handled
  std::vector<Seconds> busy;  // per host: useful_cpu there
};

class SimWorld {
 public:
  SimWorld(std::vector<SimHostSpec> hosts,
           std::shared_ptr<const SimWorkModel> work, uint64_t seed);
  ~SimWorld();

  size_t num_hosts() const { return hosts_.size(); }
  const SimHostSpec& host(uint32_t h) const { return hosts_[h]; }
  const SimWorkModel& work() const { return *work_; }
  uint64_t seed() const { return seed_; }

  // The adapter of host `h`, on `clock` (the engine's).
  std::unique_ptr<Adapter> MakeAdapter(uint32_t h, Clock& clock);

  SimStats& stats() { return stats_; }
  const SimStats& stats() const { return stats_; }
  // Current availability of host `h`.
  SimAvail avail(uint32_t h) const;

  // Set before the first job is submitted.
  void set_communication(const SimCommunication& c) { communication_ = c; }
  const SimCommunication& communication() const { return communication_; }
  // Whether host `h` holds the program (always, without a T_prog).
  bool has_program(uint32_t h) const;
  // Data messages of an unfinished iteration that host `h` holds.
  int data_held(uint32_t h) const;

  // Sizes of files the simulation put on the master (Get); other master
  // files are measured with stat().
  uint64_t MasterFileSize(const std::string& path) const;
  void SetMasterFileSize(const std::string& path, uint64_t size);

 private:
  friend class SimAdapter;
  struct Runtime;  // per-host and per-job state, sim_world.cc
  std::unique_ptr<Runtime> rt_;
  std::vector<SimHostSpec> hosts_;
  std::shared_ptr<const SimWorkModel> work_;
  uint64_t seed_;
  SimStats stats_;
  SimCommunication communication_;
  std::unordered_map<std::string, uint64_t> master_sizes_;
};

// Reads an availability trace: lines `HOST TIME STATE` (HOST a 0-based
// index, TIME seconds, STATE up|reclaimed|down), '#' comments. Appends to
// the hosts' traces and sorts them. Errors name the file and line.
Status LoadAvailabilityTrace(const std::string& path,
                             std::vector<SimHostSpec>* hosts);
Status ParseAvailabilityTrace(std::string_view text, std::string_view name,
                              std::vector<SimHostSpec>* hosts);

}  // namespace gs

#endif  // GSRT_ADAPTERS_SIMULATED_SIM_WORLD_H_
