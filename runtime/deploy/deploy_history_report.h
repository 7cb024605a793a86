// `gsdeploy history`: what the history recorded about hosts (probes and
// other availability checks, infrastructure failures, jobs), as a summary
// per host and a timeline. Pure assembly over History's listings.
#ifndef GSRT_RUNTIME_DEPLOY_DEPLOY_HISTORY_REPORT_H_
#define GSRT_RUNTIME_DEPLOY_DEPLOY_HISTORY_REPORT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "runtime/history/history.h"
#include "runtime/history/history_records.h"

namespace gs {

struct HistoryRequest {
  std::string host;   // "" for every host
  Seconds since = 0;  // events at or after; 0 for all
  // Newest events kept in the timeline; 0 keeps all. Summaries count all.
  size_t limit = 100;
};

// Counts over the events the request selects.
struct HostHistorySummary {
  std::string host;
  // Availability checks at their pace (check_pace.h): what eq. 1 reads.
  int64_t checks = 0;
  int64_t not_answered = 0;
  int64_t failures = 0;  // infrastructure failures (distrust events)
  int64_t jobs_ok = 0;
  int64_t jobs_app = 0;    // application failures (not the host's fault)
  int64_t jobs_other = 0;  // infra, timeout, cancelled
  Seconds last = 0;        // newest event
};

struct HistoryEvent {
  Seconds time = 0;
  std::string host;
  enum class Kind { kCheck, kFailure, kJob } kind = Kind::kCheck;
  std::string what;  // one line describing it
};

struct HistoryReport {
  // By host name.
  std::vector<HostHistorySummary> hosts;
  // Oldest first; the newest `limit` of them.
  std::vector<HistoryEvent> events;
  size_t omitted = 0;  // older events left out by the limit
};

// The raw listings a report is made of.
struct HistoryListings {
  std::vector<HostCheck> checks;
  std::vector<HostProbeRecord> probes;
  std::vector<HostFailure> failures;
  std::vector<JobRecord> jobs;
};

StatusOr<HistoryListings> LoadHistoryListings(History& history,
                                              const HistoryRequest& request);

// Pure: a probe's facts join the check of the same host and time.
HistoryReport BuildHistoryReport(const HistoryListings& listings,
                                 const HistoryRequest& request);

}  // namespace gs

#endif  // GSRT_RUNTIME_DEPLOY_DEPLOY_HISTORY_REPORT_H_
