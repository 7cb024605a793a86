// Rows of figures from simulated runs, printed as a table or as JSON by
// gsrt-sim. Pure formatting.
#ifndef GSRT_SIM_RUNNER_SIM_REPORT_H_
#define GSRT_SIM_RUNNER_SIM_REPORT_H_

#include <string>
#include <utility>
#include <vector>

#include "sim/runner/sim_run.h"

namespace gs {

struct SimRow {
  std::string label;  // e.g. the policy or the rewinding mode
  std::vector<std::pair<std::string, double>> values;  // lower-case names
};

// The common figures of a run: makespan, utilization, wasted_cpu,
// failures (jobs lost with a host), host_downs, hosts_lost, rt, lr, tasks,
// tasks_done, tasks_failed, jobs, events, wall_seconds.
SimRow RowFromResult(std::string label, const SimResult& r);

// Mean of each value over rows with the same names (repetitions).
SimRow MeanRow(std::string label, const std::vector<SimRow>& reps);

// A table: one line per row, one column per value name.
std::string FormatSimTable(const std::vector<SimRow>& rows);

// One JSON object: the row's values when there is one row, otherwise an
// object of the rows by label.
std::string FormatSimJson(const std::vector<SimRow>& rows);

}  // namespace gs

#endif  // GSRT_SIM_RUNNER_SIM_REPORT_H_
