#include "runtime/inspect/inspect_format.h"

#include <cinttypes>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <ctime>
#include <nlohmann/json.hpp>
#include <unordered_map>

namespace gs {

namespace {

using nlohmann::json;
using ordered = nlohmann::ordered_json;

std::string Printf(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
std::string Printf(const char* fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  return buf;
}

std::string Duration(Seconds s) {
  if (s < 60) return Printf("%.2f s", s);
  if (s < 3600) return Printf("%dm%02ds", int(s) / 60, int(s) % 60);
  return Printf("%dh%02dm", int(s) / 3600, int(s) / 60 % 60);
}

double Round3(double v) { return std::round(v * 1000) / 1000; }

ordered RunJson(const RunRow& r) {
  ordered j;
  j["id"] = r.id;
  j["started"] = Round3(r.started);
  j["ended"] = r.ended > 0 ? ordered(Round3(r.ended)) : ordered(nullptr);
  j["status"] = r.status;
  j["program"] = r.program;
  j["cwd"] = r.cwd;
  j["hosts"] = r.host_count;
  j["tasks"] = r.tasks;
  j["failed_tasks"] = r.failed_tasks;
  j["jobs"] = r.jobs;
  j["failed_jobs"] = r.failed_jobs;
  j["cancelled_tasks"] = r.cancelled_tasks;
  j["cancelled_jobs"] = r.cancelled_jobs;
  j["reused_tasks"] = r.reused_tasks;
  return j;
}

std::string Basename(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

std::string FormatTime(Seconds t) {
  if (t <= 0) return "-";
  std::time_t secs = static_cast<std::time_t>(t);
  std::tm tm;
  gmtime_r(&secs, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%SZ", &tm);
  return buf;
}

std::string FormatRuns(const std::vector<RunRow>& runs) {
  if (runs.empty()) return "no runs recorded\n";
  std::string out =
      Printf("%4s  %-20s  %-9s  %-9s  %6s  %6s  %9s  %6s  %6s  %s\n", "RUN",
             "STARTED", "DURATION", "STATUS", "TASKS", "FAILED", "CANCELLED",
             "REUSED", "JOBS", "PROGRAM");
  for (const RunRow& r : runs) {
    const std::string status =
        r.status == "running" && r.ended == 0 ? "running?" : r.status;
    out += Printf("%4" PRId64 "  %-20s  %-9s  %-9s  %6" PRId64 "  %6" PRId64
                  "  %9" PRId64 "  %6" PRId64 "  %6" PRId64 "  %s\n",
                  r.id, FormatTime(r.started).c_str(),
                  r.ended > 0 ? Duration(r.ended - r.started).c_str() : "-",
                  status.c_str(), r.tasks, r.failed_tasks, r.cancelled_tasks,
                  r.reused_tasks, r.jobs, Basename(r.program).c_str());
  }
  if (!runs.empty() && runs.back().status == "running") {
    out += "(running?: still running, or the master was killed)\n";
  }
  return out;
}

std::string RunsJson(const std::vector<RunRow>& runs) {
  ordered j;
  j["schema"] = "gsrt-runs/1";
  j["runs"] = ordered::array();
  for (const RunRow& r : runs) j["runs"].push_back(RunJson(r));
  return j.dump(2) + "\n";
}

std::string FormatShow(const RunRow& run, const RunReport& r) {
  std::string out = Printf(
      "run %" PRId64 ": %s, started %s, %s\n  %s (in %s)\n", run.id,
      run.status.c_str(), FormatTime(run.started).c_str(),
      run.ended > 0 ? ("took " + Duration(run.ended - run.started)).c_str()
                    : "never ended",
      run.program.c_str(), run.cwd.c_str());
  out += Printf("tasks: %" PRId64 " (%" PRId64 " done, %" PRId64
                " failed, %" PRId64 " futile, %" PRId64 " cancelled), %" PRId64
                " job attempts\n",
                r.tasks, r.done, r.failed, r.futile, r.cancelled, r.jobs);
  if (r.reused > 0) {
    out += Printf("  of the done tasks, %" PRId64 " ran and %" PRId64
                  " were reused from earlier runs (gsrt tasks --reused)\n",
                  r.done - r.reused, r.reused);
  }
  out += "hosts:\n";
  for (const HostUse& h : r.hosts) {
    out += Printf("  %-16s %5" PRId64 " jobs  %5" PRId64
                  " ok  busy %-9s  %d slots  %3.0f%% used\n",
                  h.host.c_str(), h.jobs, h.ok, Duration(h.busy).c_str(),
                  h.slots, 100 * h.utilization);
  }
  out += "operations (slowest first):\n";
  for (const OperationUse& o : r.operations) {
    out += Printf("  %-16s %5" PRId64 " jobs  %5" PRId64
                  " ok  mean %-9s  longest %s\n",
                  o.operation.c_str(), o.jobs, o.ok, Duration(o.mean).c_str(),
                  Duration(o.longest).c_str());
  }
  out += Printf("critical path: %s over %zu tasks",
                Duration(r.critical.length).c_str(), r.critical.tasks.size());
  if (!r.critical.tasks.empty()) {
    out += ":";
    size_t shown = 0;
    for (TaskId t : r.critical.tasks) {
      if (++shown > 12) {
        out += " ...";
        break;
      }
      out += " " + std::to_string(t);
    }
  }
  out += "\n";
  out += Printf("staging: %" PRId64 " transfers, %" PRIu64 " bytes, %s\n",
                r.transfers, r.staged_bytes, Duration(r.staging).c_str());
  if (!r.failures.empty()) {
    out += "failed tasks:\n";
    for (const FailedTask& f : r.failures) {
      out +=
          Printf("  %s #%u after %d attempts on %s: %s\n", f.operation.c_str(),
                 f.task, f.attempts, f.host.c_str(), f.error.c_str());
      if (!f.log_dir.empty()) out += "    logs: " + f.log_dir + "\n";
    }
  }
  return out;
}

std::string ShowJson(const RunRow& run, const RunReport& r) {
  ordered j;
  j["schema"] = "gsrt-show/1";
  j["run"] = RunJson(run);
  j["tasks"] = {{"total", r.tasks},         {"done", r.done},
                {"failed", r.failed},       {"futile", r.futile},
                {"cancelled", r.cancelled}, {"reused", r.reused}};
  j["jobs"] = r.jobs;
  j["hosts"] = ordered::array();
  for (const HostUse& h : r.hosts) {
    j["hosts"].push_back({{"host", h.host},
                          {"jobs", h.jobs},
                          {"ok", h.ok},
                          {"busy_s", Round3(h.busy)},
                          {"slots", h.slots},
                          {"utilization", Round3(h.utilization)}});
  }
  j["operations"] = ordered::array();
  for (const OperationUse& o : r.operations) {
    j["operations"].push_back({{"operation", o.operation},
                               {"jobs", o.jobs},
                               {"ok", o.ok},
                               {"mean_s", Round3(o.mean)},
                               {"longest_s", Round3(o.longest)}});
  }
  j["critical_path"] = {{"length_s", Round3(r.critical.length)},
                        {"tasks", r.critical.tasks}};
  j["staging"] = {{"transfers", r.transfers},
                  {"bytes", r.staged_bytes},
                  {"seconds", Round3(r.staging)}};
  j["failed_tasks"] = ordered::array();
  for (const FailedTask& f : r.failures) {
    j["failed_tasks"].push_back({{"task", f.task},
                                 {"operation", f.operation},
                                 {"attempts", f.attempts},
                                 {"host", f.host},
                                 {"error", f.error},
                                 {"log_dir", f.log_dir}});
  }
  return j.dump(2) + "\n";
}

std::vector<TaskLine> TaskLines(const std::vector<StoredTask>& tasks,
                                const std::vector<JobRecord>& jobs) {
  std::unordered_map<TaskId, size_t> index;
  std::vector<TaskLine> out;
  for (const StoredTask& t : tasks) {
    index[t.record.task] = out.size();
    TaskLine line;
    line.task = t;
    out.push_back(std::move(line));
  }
  for (const JobRecord& j : jobs) {
    auto it = index.find(j.task);
    if (it == index.end()) continue;
    TaskLine& line = out[it->second];
    if (!j.replica) ++line.attempts;
    line.host = j.host;
    line.error = j.error;
    line.log_dir = j.log_dir;
  }
  return out;
}

std::string FormatTasks(const std::vector<TaskLine>& tasks) {
  if (tasks.empty()) return "no tasks\n";
  std::string out =
      Printf("%6s  %-16s  %-9s  %8s  %-12s  %s\n", "TASK", "OPERATION", "STATE",
             "ATTEMPTS", "HOST", "LAST ERROR");
  for (const TaskLine& t : tasks) {
    out += Printf("%6u  %-16s  %-9s  %8d  %-12s  %s\n", t.task.record.task,
                  t.task.record.operation.c_str(), t.task.state.c_str(),
                  t.attempts, t.host.empty() ? "-" : t.host.c_str(),
                  t.error.c_str());
  }
  return out;
}

std::string TasksJson(RunId run, const std::vector<TaskLine>& tasks) {
  ordered j;
  j["schema"] = "gsrt-tasks/1";
  j["run"] = run;
  j["tasks"] = ordered::array();
  for (const TaskLine& t : tasks) {
    j["tasks"].push_back({{"task", t.task.record.task},
                          {"operation", t.task.record.operation},
                          {"state", t.task.state},
                          {"depends_on", t.task.record.depends_on},
                          {"attempts", t.attempts},
                          {"host", t.host},
                          {"error", t.error},
                          {"log_dir", t.log_dir}});
  }
  return j.dump(2) + "\n";
}

std::string FormatDot(const std::vector<StoredTask>& tasks) {
  std::string out = "digraph gsrt {\n  node [shape=box, style=filled];\n";
  for (const StoredTask& t : tasks) {
    const char* color = t.state == "done"        ? "palegreen"
                        : t.state == "failed"    ? "salmon"
                        : t.state == "futile"    ? "lightgrey"
                        : t.state == "cancelled" ? "lightsteelblue"
                                                 : "lightyellow";
    out += Printf("  t%u [label=\"%s #%u\", fillcolor=%s];\n", t.record.task,
                  t.record.operation.c_str(), t.record.task, color);
  }
  for (const StoredTask& t : tasks) {
    for (TaskId d : t.record.depends_on) {
      out += Printf("  t%u -> t%u;\n", d, t.record.task);
    }
  }
  return out + "}\n";
}

}  // namespace gs
