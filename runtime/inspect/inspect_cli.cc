#include "runtime/inspect/inspect_cli.h"

#include <CLI/CLI.hpp>
#include <filesystem>
#include <fstream>
#include <memory>

#include "runtime/base/command_line.h"
#include "runtime/history/history.h"
#include "runtime/inspect/cache_cli.h"
#include "runtime/inspect/inspect_format.h"
#include "runtime/inspect/testbed_cli.h"
#include "runtime/inspect/version_report.h"
#include "runtime/observe/history_replay.h"
#include "runtime/observe/run_report.h"
#include "runtime/observe/trace_observer.h"

namespace gs {

namespace {

constexpr char kFooter[] =
    "Exit codes: 0 done; 2 bad command line or configuration; 3 the "
    "history is unusable or has no such run.";

struct Args {
  std::string history;
  std::string run;  // "" or "latest": the newest
  bool json = false;
  bool failed = false;
  bool cancelled = false;
  bool reused = false;
  std::string state;
  std::string output;
};

CLI::App* AddCommand(CLI::App& app, const char* name, const char* help, Args* a,
                     bool takes_run, bool json) {
  CLI::App* cmd = app.add_subcommand(name, help);
  cmd->add_option("--history", a->history,
                  "history file (default: runtime.history of gsrt.yaml, "
                  "else .gsrt/history.db)");
  if (takes_run) {
    cmd->add_option("RUN", a->run,
                    "run id as `gsrt runs` lists it "
                    "(default: the latest)");
  }
  if (json) cmd->add_flag("--json", a->json, "print one JSON object");
  cmd->footer(kFooter);
  return cmd;
}

class Command {
 public:
  Command(const Args& a, const ConfigEnv& env, std::ostream& out,
          std::ostream& err)
      : a_(a), env_(env), out_(out), err_(err) {}

  int Runs();
  int Show();
  int Tasks();
  int Trace();
  int Dot();

 private:
  // Opens the history; on failure says why on err_.
  bool Open();
  // Resolves a_.run; on failure says why.
  bool PickRun(RunRow* run);
  int Fail(const Status& s) {
    err_ << "gsrt: " << s.message() << "\n";
    return kGsrtHistoryError;
  }

  const Args& a_;
  const ConfigEnv& env_;
  std::ostream& out_;
  std::ostream& err_;
  std::unique_ptr<History> history_;
  int code_ = 0;
};

bool Command::Open() {
  std::string path = a_.history;
  if (path.empty()) {
    auto config = LoadDefaultConfig(env_);
    if (!config.ok()) {
      err_ << "gsrt: " << config.status().message() << "\n";
      code_ = kBadCommandLine;
      return false;
    }
    path = config->runtime.history;
  }
  // Reading must not create an empty history (History::Open would).
  if (std::error_code ec; !std::filesystem::exists(path, ec)) {
    code_ = Fail(Status::NotFound(
        "no history at " + path +
        " (a master writes it on its first run); name another with "
        "--history or runtime.history"));
    return false;
  }
  auto history = History::Open(path);
  if (!history.ok()) {
    code_ = Fail(history.status());
    return false;
  }
  history_ = std::move(history).value();
  return true;
}

bool Command::PickRun(RunRow* run) {
  int64_t id = 0;
  if (a_.run.empty() || a_.run == "latest") {
    auto latest = history_->LatestRunId();
    if (!latest.ok()) {
      code_ = Fail(latest.status());
      return false;
    }
    if (*latest == 0) {
      code_ = Fail(
          Status::NotFound("history " + history_->path() + " has no runs yet"));
      return false;
    }
    id = *latest;
  } else {
    try {
      size_t used = 0;
      id = std::stoll(a_.run, &used);
      if (used != a_.run.size()) throw std::invalid_argument(a_.run);
    } catch (const std::exception&) {
      err_ << "gsrt: RUN must be a run id (see `gsrt runs`) or 'latest', not '"
           << a_.run << "'\n";
      code_ = kBadCommandLine;
      return false;
    }
  }
  auto row = history_->LoadRun(id);
  if (!row.ok()) {
    code_ = Fail(row.status());
    return false;
  }
  *run = *row;
  return true;
}

int Command::Runs() {
  if (!Open()) return code_;
  auto runs = history_->LoadRuns();
  if (!runs.ok()) return Fail(runs.status());
  out_ << (a_.json ? RunsJson(*runs) : FormatRuns(*runs));
  return 0;
}

int Command::Show() {
  RunRow run;
  if (!Open() || !PickRun(&run)) return code_;
  auto tasks = history_->LoadTasks(run.id);
  if (!tasks.ok()) return Fail(tasks.status());
  auto jobs = history_->JobsForRun(run.id);
  if (!jobs.ok()) return Fail(jobs.status());
  auto events = history_->LoadRunEvents(run.id);
  if (!events.ok()) return Fail(events.status());
  RunReport report = BuildRunReport(*tasks, *jobs, *events);
  out_ << (a_.json ? ShowJson(run, report) : FormatShow(run, report));
  return 0;
}

int Command::Tasks() {
  RunRow run;
  if (!Open() || !PickRun(&run)) return code_;
  auto tasks = history_->LoadTasks(run.id);
  if (!tasks.ok()) return Fail(tasks.status());
  auto jobs = history_->JobsForRun(run.id);
  if (!jobs.ok()) return Fail(jobs.status());
  std::vector<TaskLine> lines = TaskLines(*tasks, *jobs);
  std::string state = a_.failed      ? "failed"
                      : a_.cancelled ? "cancelled"
                      : a_.reused    ? "reused"
                                     : a_.state;
  if (!state.empty()) {
    std::erase_if(lines,
                  [&](const TaskLine& t) { return t.task.state != state; });
  }
  out_ << (a_.json ? TasksJson(run.id, lines) : FormatTasks(lines));
  return 0;
}

int Command::Trace() {
  RunRow run;
  if (!Open() || !PickRun(&run)) return code_;
  const std::string path = a_.output.empty()
                               ? "gsrt-run-" + std::to_string(run.id) + ".json"
                               : a_.output;
  auto trace = TraceObserver::Create(path);
  if (!trace.ok()) return Fail(trace.status());
  if (Status s = ReplayRun(*history_, run.id, trace->get()); !s.ok()) {
    return Fail(s);
  }
  if (Status s = (*trace)->Flush(); !s.ok()) return Fail(s);
  if (a_.json) {
    out_ << "{\"schema\": \"gsrt-trace/1\", \"run\": " << run.id
         << ", \"file\": \"" << path << "\", \"jobs\": " << (*trace)->jobs()
         << ", \"flows\": " << (*trace)->flows() << "}\n";
  } else {
    out_ << "wrote " << path << ": " << (*trace)->jobs() << " job attempts, "
         << (*trace)->flows()
         << " dependencies; open it in https://ui.perfetto.dev or "
            "chrome://tracing\n";
  }
  return 0;
}

int Command::Dot() {
  RunRow run;
  if (!Open() || !PickRun(&run)) return code_;
  auto tasks = history_->LoadTasks(run.id);
  if (!tasks.ok()) return Fail(tasks.status());
  out_ << FormatDot(*tasks);
  return 0;
}

}  // namespace

int RunGsrtCommand(const std::vector<std::string>& args, const ConfigEnv& env,
                   std::ostream& out, std::ostream& err) {
  CLI::App app{
      "gsrt: what the history (.gsrt/history.db) says about past runs of "
      "gsrt applications: the runs, one run's summary, its tasks, its trace "
      "for Perfetto, its task graph; `gsrt cache`: the results kept for "
      "reuse across runs; and `gsrt testbed`: hosts to try gsrt on this "
      "machine.",
      "gsrt"};
  AddVersionFlag(app);
  bool verbose = false;  // (read before parsing: AsksVerboseVersion)
  app.add_flag("--verbose", verbose,
               "with --version: what it was built with, and the glibc and "
               "libstdc++ versions each installed program needs");
  if (AsksVerboseVersion(args)) {
    std::error_code ec;
    WriteVerboseVersion(std::filesystem::read_symlink("/proc/self/exe", ec),
                        out);
    return 0;
  }
  app.footer(std::string(kFooter) +
             " `gsrt testbed`: see `gsrt testbed --help`.");
  app.require_subcommand(1);
  Args a;
  CLI::App* runs = AddCommand(app, "runs",
                              "List the recorded runs: start, duration, "
                              "status, tasks, failed and cancelled tasks, "
                              "job attempts.",
                              &a, false, true);
  CLI::App* show = AddCommand(
      app, "show",
      "A run's summary: per host (jobs, busy time, utilization), per "
      "operation (slowest first), the critical path, staging, and the "
      "failed tasks with their last error and log directory.",
      &a, true, true);
  CLI::App* tasks = AddCommand(
      app, "tasks", "A run's tasks: state, attempts, last host and error.", &a,
      true, true);
  CLI::Option* failed =
      tasks->add_flag("--failed", a.failed, "only the failed tasks");
  tasks
      ->add_flag("--cancelled", a.cancelled,
                 "only the tasks the run's end stopped (Ctrl-C)")
      ->excludes(failed);
  tasks
      ->add_flag("--reused", a.reused,
                 "only the tasks done by reusing an earlier run's results "
                 "(docs/reuse.md)")
      ->excludes(failed);
  tasks->add_option("--state", a.state, "only tasks in this state")
      ->check(CLI::IsMember(
          {"submitted", "done", "failed", "futile", "cancelled", "reused"}));
  CLI::App* trace = AddCommand(
      app, "trace",
      "Rebuild a run's Chrome trace-event JSON (as GSRT_TRACE writes it) "
      "from the history.",
      &a, true, true);
  trace->add_option("-o,--output", a.output,
                    "file to write (default: gsrt-run-RUN.json)");
  CLI::App* dot = AddCommand(
      app, "dot", "A run's task graph (true dependencies) in Graphviz DOT.", &a,
      true, false);
  CacheArgs cache_args;
  CLI::App* cache = AddCacheCommand(app, &cache_args);
  TestbedArgs testbed_args;
  CLI::App* testbed = AddTestbedCommand(app, &testbed_args);
  if (auto stop = ParseCommandLine(app, args, out, err)) return *stop;
  if (testbed->parsed()) return RunTestbed(testbed_args, err);
  if (cache->parsed()) return RunCache(cache_args, env, out, err);
  Command c(a, env, out, err);
  if (runs->parsed()) return c.Runs();
  if (show->parsed()) return c.Show();
  if (tasks->parsed()) return c.Tasks();
  if (trace->parsed()) return c.Trace();
  if (dot->parsed()) return c.Dot();
  return kBadCommandLine;
}

}  // namespace gs
