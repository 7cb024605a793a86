// How `gsrt` prints what the history holds: plain text for people, JSON
// (one object, "schema": "gsrt-<command>/1") for scripts. Pure: records in,
// text out; times in UTC so golden tests do not depend on the zone.
#ifndef GSRT_RUNTIME_INSPECT_INSPECT_FORMAT_H_
#define GSRT_RUNTIME_INSPECT_INSPECT_FORMAT_H_

#include <string>
#include <vector>

#include "runtime/history/history_records.h"
#include "runtime/history/run_records.h"
#include "runtime/observe/run_report.h"

namespace gs {

std::string FormatRuns(const std::vector<RunRow>& runs);
std::string RunsJson(const std::vector<RunRow>& runs);

std::string FormatShow(const RunRow& run, const RunReport& report);
std::string ShowJson(const RunRow& run, const RunReport& report);

// A task and its attempts, for `gsrt tasks`.
struct TaskLine {
  StoredTask task;
  int attempts = 0;
  std::string host;   // of the last attempt
  std::string error;  // of the last attempt
  std::string log_dir;
};
std::vector<TaskLine> TaskLines(const std::vector<StoredTask>& tasks,
                                const std::vector<JobRecord>& jobs);
std::string FormatTasks(const std::vector<TaskLine>& tasks);
std::string TasksJson(RunId run, const std::vector<TaskLine>& tasks);

// The run's tasks and true dependencies as a Graphviz digraph, coloured by
// final state.
std::string FormatDot(const std::vector<StoredTask>& tasks);

// "2026-11-24 19:43:40Z"; "-" for 0.
std::string FormatTime(Seconds t);

}  // namespace gs

#endif  // GSRT_RUNTIME_INSPECT_INSPECT_FORMAT_H_
