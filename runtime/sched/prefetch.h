// Prefetch: jobs sent to a host beyond its free slots, which the host
// queues and starts the moment a slot frees, so that the round trip of a
// job's report and the next job (an ssh host's agent: the encrypted channel,
// sshd and the agent between every job) is hidden behind the running ones.
//
// The engine places prefetched jobs in a second pass of the same policy,
// after the usual round left tasks waiting: the policy sees, on hosts with a
// prefetch depth, room for up to that many jobs beyond their slots, and none
// on the others. The first pass is untouched, so a policy decides on free
// slots exactly as without prefetch; only tasks that would otherwise wait
// for the next round are queued early, at most `depth` per host.
#ifndef GSRT_RUNTIME_SCHED_PREFETCH_H_
#define GSRT_RUNTIME_SCHED_PREFETCH_H_

#include <span>
#include <vector>

#include "runtime/sched/scheduler.h"

namespace gs {

// Most jobs a host queues per slot, whatever the window says.
inline constexpr int kMaxPrefetchPerSlot = 16;

// The depth of a host's prefetch: `base` jobs (the host's `prefetch`), or,
// when its jobs are short, as many as make `window` seconds of work per
// slot at `mean_job` (the host's recent mean run time of a job): the round
// trip to the host is hidden behind them, while a deep queue of long jobs,
// which a faster host could take, is not made. Without a window or a mean
// (no job has ended there yet), `base`; 0 stays 0 (prefetch off).
int PrefetchDepth(int base, Seconds window, int slots, Seconds mean_job);

// Turns the hosts' states (busy with every job placed so far, this round's
// included) into those of the prefetch pass: a usable host with depth d > 0
// and capacity c (its slots) offers c + d slots; any other host is not
// offered (usable false). `depth` and `capacity` are per host, as `states`.
// Returns whether any host has room for a prefetched job.
bool PrefetchStates(std::span<const int> depth, std::span<const int> capacity,
                    std::vector<HostState>* states);

}  // namespace gs

#endif  // GSRT_RUNTIME_SCHED_PREFETCH_H_
