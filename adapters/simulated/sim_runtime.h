// The moving parts of a SimWorld (private to adapters/simulated): per-host
// availability and files, jobs grouped in gangs, transfers. Runs on the
// engine's thread only.
#ifndef GSRT_ADAPTERS_SIMULATED_SIM_RUNTIME_H_
#define GSRT_ADAPTERS_SIMULATED_SIM_RUNTIME_H_

#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "adapters/simulated/sim_master_link.h"
#include "adapters/simulated/sim_world.h"

namespace gs {

struct SimGang;

struct SimJob {
  JobId id = 0;
  uint32_t host = 0;
  JobSpec spec;
  Adapter::DoneCallback done;
  Seconds submitted = 0;
  Seconds started = -1;  // out of the queue; -1 while waiting
  // Paper 002's communication phase: the job's data under way (0: none),
  // and whether the host has everything the job needs to compute.
  SimMasterLink::Id data_transfer = 0;
  bool data_received = false;
  bool received = false;
  std::unique_ptr<Timer> queue_timer;
  std::shared_ptr<SimGang> gang;
};

// Jobs that compute together (a plain job is a gang of one).
struct SimGang {
  std::string key;
  uint32_t size = 1;
  std::vector<SimJob*> members;
  bool sized = false;     // all members started: `remaining` is known
  Seconds remaining = 0;  // seconds of computation left
  Seconds since = -1;     // start of the current stretch; -1 when paused
  Seconds computed = 0;   // seconds computed so far
  std::unique_ptr<Timer> timer;
};

struct SimWorld::Runtime {
  struct Host {
    SimAvail avail = SimAvail::kUp;
    bool connected = false;
    bool process_started = false;
    size_t trace_next = 0;
    std::mt19937_64 rng;
    std::unique_ptr<Timer> avail_timer;
    std::unordered_map<std::string, uint64_t> files;
    std::map<JobId, std::unique_ptr<SimJob>> jobs;
    // Cores the jobs above hold (each at least one): asked for every host at
    // every scheduling round, so kept rather than summed.
    int busy_cores = 0;
    // Paper 002: the program, held until the host goes DOWN, and its send
    // under way (0: none).
    bool has_program = false;
    SimMasterLink::Id program_transfer = 0;
    // Data messages received for the gang key `data_key` (an iteration)
    // that the host still holds: a job of that key placed here again (after
    // its gang was stopped) uses one instead of receiving it. Kept until the
    // host goes DOWN or a gang of that key completes here.
    std::string data_key;
    int data_held = 0;
    std::map<uint64_t,
             std::pair<std::unique_ptr<Timer>, Adapter::StatusCallback>>
        transfers;
  };

  SimWorld* world = nullptr;
  Clock* clock = nullptr;
  std::vector<Host> hosts;
  std::unordered_map<std::string, std::shared_ptr<SimGang>> forming;
  std::unique_ptr<SimMasterLink> link;  // with a communication phase
  uint64_t next_transfer = 1;
  // Reports and other deferred calls: adapters never call back from inside
  // the call that started the work.
  std::unordered_map<uint64_t, std::unique_ptr<Timer>> later;
  uint64_t next_later = 1;
  void Later(Seconds delay, std::function<void()> fn);
  void Report(SimJob* job, JobOutcome outcome);

  void StartProcess(uint32_t h);
  void ScheduleNextChange(uint32_t h);
  void SetAvail(uint32_t h, SimAvail a);

  void Submit(uint32_t h, JobSpec spec, Adapter::DoneCallback done);
  void Begin(SimJob* job);
  // The communication phase of `job` (paper 002), then Received().
  void Receive(SimJob* job);
  void Received(SimJob* job);
  // Whether `job` can use data its host already holds for its iteration
  // (counted in stats as reused).
  bool ClaimHeldData(SimJob* job);
  // Drops `job`'s transfers, and its host's program send when no job
  // there waits for it any more (after `job` has left the host).
  void DropTransfers(SimJob* job);
  // Starts or pauses the gang's computation to match its hosts' states.
  void Update(SimGang* g);
  void Complete(SimGang* g);
  // Ends every member: those on `failed_host` with HostFailed, the others
  // Cancelled (their work is lost with the gang).
  void Abort(SimGang* g, uint32_t failed_host, const std::string& why,
             bool cancelled);
  void Transfer(uint32_t h, uint64_t bytes, std::function<void()> land,
                Adapter::StatusCallback done);
  void FailTransfers(uint32_t h, const std::string& why);
};

}  // namespace gs

#endif  // GSRT_ADAPTERS_SIMULATED_SIM_RUNTIME_H_
