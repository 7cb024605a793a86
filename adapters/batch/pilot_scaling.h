// How many pilot jobs a pilot-mode batch host should hold, decided from
// what the adapter knows at one tick: the engine's backlog, the pilots
// still waiting in the batch queue, and how long each serving pilot has
// had no job. Pure: the adapter (pilot_adapter.cc) gathers the census and
// carries out the answer (sbatch/qsub, stop and cancel).
// The rules, modelled on HyperQueue's automatic allocation: keep the floor
// (`pilots`); grow by one while tasks wait, no serving pilot has a free
// slot and no pilot is pending; never beyond `max_pilots` nor `max_jobs`;
// while nothing waits, release pilots idle for `pilot_linger`, longest
// idle first. Why one at a time, and why the count does not flap:
// docs/slurm.md, "Pilots that follow the work".
#ifndef GSRT_ADAPTERS_BATCH_PILOT_SCALING_H_
#define GSRT_ADAPTERS_BATCH_PILOT_SCALING_H_

#include <cstddef>
#include <vector>

#include "runtime/base/clock.h"

namespace gs {

struct PilotLimits {
  int floor = 1;       // `pilots`
  int max_pilots = 1;  // `max_pilots` (at least the floor)
  int max_jobs = 0;    // `max_jobs`; 0: no limit
  Seconds linger = 60;
};

struct PilotCensus {
  // Ready tasks the engine found no free slot for in its last round.
  int waiting_tasks = 0;
  // Pilots submitted but not serving yet (queued, or connecting).
  int pending = 0;
  // Free slots summed over the serving pilots.
  int free_slots = 0;
  // One entry per serving pilot: seconds since it last had a job (or since
  // it connected); negative while it runs one.
  std::vector<Seconds> idle_for;
};

struct PilotScaling {
  int submit = 0;  // pilots to submit now
  // Serving pilots to stop, as indices into PilotCensus::idle_for.
  std::vector<size_t> retire;
};

PilotScaling DecidePilots(const PilotCensus& census, const PilotLimits& limits);

}  // namespace gs

#endif  // GSRT_ADAPTERS_BATCH_PILOT_SCALING_H_
