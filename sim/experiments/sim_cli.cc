#include "sim/experiments/sim_cli.h"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <utility>

#include "runtime/base/command_line.h"
#include "runtime/sched/policy_catalog.h"
#include "runtime/sched/scheduler.h"
#include "sim/instances/etc_generate.h"
#include "sim/instances/etc_matrix.h"
#include "sim/instances/makespan_lower_bound.h"
#include "sim/instances/stg_generate.h"
#include "sim/instances/stg_graph.h"
#include "sim/runner/scratch_dir.h"

namespace gs {

namespace {

constexpr char kDescription[] =
    "gsrt-sim: run the gsrt engine (scheduler, policies, failure handling, "
    "rewinding) against simulated hosts in virtual time, and reproduce the "
    "experiments of the papers behind gsrt. Figures: makespan (virtual "
    "seconds to the end of the last job), utilization (useful slot-seconds "
    "/ slots x makespan), wasted_cpu (slot-seconds of lost or cancelled "
    "work), failures (jobs lost with a host), host_downs, hosts_lost "
    "(losses the engine noticed), rt / lr (rewound tasks, levels rewound; "
    "paper 000), nsl / aet (dag), events (simulation events); bot also: "
    "total_cpu (useful + wasted slot-seconds), mean_task_end (mean time a "
    "task's result was ready), replicas (replicas started) and "
    "replica_wins (replicas that finished their task first); volatile "
    "also: iterations (completed by the deadline), program_sends and "
    "data_sends (transfers from the master that arrived) and data_reused "
    "(tasks that used data their host already held).";

constexpr char kFooter[] =
    "Exit codes: 0 done; 1 some task did not finish; 2 bad command line or "
    "input.\nManual: experiments.md, installed in share/doc/gsrt under the "
    "installation prefix (docs/ in the source tree). Data: the Braun ETC "
    "instances and STG graphs are in share/gsrt/data (sim/data in "
    "the source tree).\nPapers (docs/papers.md): 000 Hernandez, Cole, "
    "\"Reliable DAG scheduling on Grids with Rewinding and Migration\"; 001 "
    "Bansal, Rani, Singh, \"The WorkQueue with Dynamic Replication - Fault "
    "Tolerant Scheduler in Desktop Grid Environment\"; 002 Casanova, "
    "Dufosse, Robert, Vivien, \"Mapping tightly-coupled applications on "
    "volatile resources\"; 003 Panda, Khilar, Mohapatra, \"FTMXT: "
    "Fault-Tolerant Immediate Mode Heuristics in Computational Grid\"; 004 "
    "Anciaux-Sedrakian, Badia, Sirvent, Perez, Kielmann, Merzky, \"GRID "
    "superscalar and job mapping on the reliable grid resources\"; Braun et "
    "al., \"A comparison of eleven static heuristics for mapping a class of "
    "independent tasks onto heterogeneous distributed computing systems\".";

void AddEtc(CLI::App& app, SimEtcArgs* a, bool* json) {
  CLI::App* etc = app.add_subcommand(
      "etc",
      "A Braun ETC instance as a bag of independent tasks in file order, one "
      "one-slot host per machine, no data (papers 003, Braun et al.).");
  etc->add_option("FILE", a->file, "ETC file (Braun format)")
      ->required()
      ->check(CLI::ExistingFile);
  etc->add_option(
      "--policy,-p", a->policy,
      std::string("scheduling policy (mct), any of `gsrt-sim policies`: ") +
          kPolicyNames);
  etc->add_option("--fail", a->fails,
                  "HOST@TIME[-UNTIL]: host (0-based) down at TIME virtual "
                  "seconds (back UP at UNTIL); repeatable");
  etc->add_flag("--paper003", a->paper003,
                "apply paper 003's failure list (8 of 16 machines), timed "
                "from a failure-free run of the same policy");
  etc->add_flag("--json", *json, "one JSON object instead of a table");
}

void AddDag(CLI::App& app, SimDagArgs* a, bool* json) {
  CLI::App* dag = app.add_subcommand(
      "dag",
      "STG task graphs (paper 000): seeded per-host execution times and edge "
      "sizes; a run without failure and one with a host failing (by default "
      "a seeded host, among those running a job then, at half the "
      "failure-free makespan); NSL, AET, RT, LR.");
  DagOptions& o = a->options;
  dag->add_option("FILE", a->files, "STG files")
      ->required()
      ->check(CLI::ExistingFile);
  dag->add_option("--hosts,-n", o.hosts, "number of hosts (default 5)");
  dag->add_option("--policy,-p", o.policy,
                  std::string("scheduling policy (mct): ") + kPolicyNames);
  dag->add_option("--rewind", a->rewind,
                  "gtp-r, gtp-c-r, restart, or all (one row each)")
      ->check(CLI::IsMember({"gtp-r", "gtp-c-r", "restart", "all"}));
  dag->add_option("--fail", a->fails,
                  "HOST@TIME[-UNTIL] instead of the mid-run failure");
  dag->add_option("--ccr", o.ccr,
                  "communication to computation ratio of edges (0.5)");
  dag->add_option("--bandwidth", o.bandwidth, "bytes/s of links (1e6)");
  dag->add_option("--latency", o.latency, "seconds per transfer (0.01)");
  dag->add_flag("--json", *json, "one JSON object instead of a table");
}

void AddBot(CLI::App& app, SimBotArgs* a, bool* json) {
  CLI::App* bot = app.add_subcommand(
      "bot",
      "A bag of independent tasks on hosts of drawn speeds, with optional "
      "failures: the scale run and the replication experiments.");
  BotOptions& o = a->options;
  bot->add_option("--tasks", o.tasks, "number of tasks (1000)");
  bot->add_option("--hosts", o.hosts, "number of hosts (10)");
  bot->add_option("--slots", o.slots, "slots per host (1)");
  bot->add_option("--mean", o.mean, "mean task work, seconds at speed 1");
  bot->add_option("--speed-spread", o.speed_spread,
                  "host speeds drawn in [1 - S, 1 + S] (0.5); 0 = identical");
  bot->add_option(
      "--policy,-p", a->policies,
      std::string("scheduling policies, one row each (mct): ") + kPolicyNames +
          ". wqr, wqr-ft and "
          "wqdr-ft (paper 001) take an optional /N: their replication "
          "threshold (wqdr-ft: a cap on RLTH = 1 + 1/SR, which has "
          "none without it, as in the paper), e.g. "
          "wqr-ft/3. wqr runs without automatic restart, as the paper "
          "defines it");
  bot->add_option("--threshold", o.threshold,
                  "replication threshold of policies without /N (wqr, wqr-ft: "
                  "2; wqdr-ft: no cap)")
      ->check(CLI::PositiveNumber);
  bot->add_option("--fail", a->fails, "HOST@TIME[-UNTIL]; repeatable");
  bot->add_option("--trace", o.trace,
                  "availability trace: lines HOST TIME up|reclaimed|down");
  bot->add_option("--mtbf", o.mtbf,
                  "mean seconds between host failures (Markov UP/DOWN); 0 = "
                  "none");
  bot->add_option("--mttr", o.mttr, "mean seconds a failed host stays down");
  bot->add_option("--mtbf-spread", o.mtbf_spread,
                  "each host's MTBF drawn in [mtbf (1 - S), mtbf (1 + S)] "
                  "(0): hosts of unequal reliability");
  bot->add_flag("--json", *json, "one JSON object instead of a table");
}

void AddVolatile(CLI::App& app, SimVolatileArgs* a, bool* json) {
  CLI::App* vol = app.add_subcommand(
      "volatile",
      "Paper 002: iterations of m tightly-coupled tasks on hosts that are "
      "UP, RECLAIMED or DOWN by per-host Markov chains drawn from the seed; "
      "iterations completed before the deadline.");
  VolatileOptions& o = a->options;
  vol->add_option("--policy,-p", a->policies,
                  "policies, one row each (ip ie iy iay, proactive c-h "
                  "such as y-ie)");
  vol->add_option("--hosts", o.hosts, "number of hosts (20)");
  vol->add_option("--m", o.m, "tasks per iteration (10)");
  vol->add_option("--deadline", o.deadline, "virtual seconds (10000)");
  vol->add_option("--slot", o.slot, "Markov time slot, seconds (1)");
  vol->add_option("--w-min", o.w_min, "shortest task time on a host (10)");
  vol->add_option("--w-max", o.w_max, "longest task time on a host (30)");
  vol->add_option("--max-slots", o.max_slots, "slots per host, 1..N (2)");
  vol->add_option("--t-prog", o.t_prog,
                  "seconds to send the program to a host that lacks it (10)");
  vol->add_option("--t-data", o.t_data,
                  "seconds to send one task's data to its host (2)");
  vol->add_option("--n-com", o.n_com,
                  "hosts the master sends to at once, 0 = no bound (5)");
  vol->add_flag("--json", *json, "one JSON object instead of a table");
}

void AddReliability(CLI::App& app, SimReliabilityArgs* a, bool* json) {
  CLI::App* rel = app.add_subcommand(
      "reliability",
      "Paper 004: the four DAS-2 clusters of its tables 1 and 2 (their "
      "availability as UP/DOWN chains, file transfer time, queue wait; the "
      "less reliable ones faster). --learn rank-blind runs (mct) fill a "
      "history; table 1 is recomputed from it (availability eq. 1-2, "
      "distrust eq. 3, Time eq. 4, rrank, prank, grank eq. 5); then one row "
      "per policy, each run starting from its own copy of the history.");
  ReliabilityOptions& o = a->options;
  rel->add_option("--policy,-p", a->policies,
                  "policies, one row each (grank mct met)");
  rel->add_option("--tasks", o.tasks, "tasks per run (16)");
  rel->add_option("--mean", o.mean,
                  "mean task work, seconds at speed 1 (2000)");
  rel->add_option("--slots", o.slots, "slots per host (4)");
  rel->add_option("--mttr", o.mttr,
                  "mean seconds a host stays down (3000); its mean up time "
                  "follows from its availability");
  rel->add_option("--learn", o.learn_runs,
                  "rank-blind runs recorded in the history first (10)")
      ->check(CLI::NonNegativeNumber);
  rel->add_option("--alpha", o.rank.alpha, "grank's weight of rrank (0.5)");
  rel->add_option("--beta", o.rank.beta, "grank's weight of prank (0.5)");
  rel->add_option("--history", a->history,
                  "keep the history in this SQLite file (appended to; "
                  "gsdeploy rank and gsrt runs read it); default: a "
                  "temporary file");
  rel->add_flag("--json", *json, "one JSON object instead of a table");
}

StatusOr<std::vector<SimFailure>> ParseFailures(
    const std::vector<std::string>& texts) {
  std::vector<SimFailure> failures;
  for (const std::string& text : texts) {
    StatusOr<SimFailure> parsed = ParseSimFailure(text);
    if (!parsed.ok()) return parsed.status();
    failures.push_back(*parsed);
  }
  return failures;
}

// "wqr-ft/3" -> ("wqr-ft", 3); a label without '/' keeps `threshold`.
StatusOr<std::pair<std::string, int>> ParsePolicyLabel(const std::string& label,
                                                       int threshold) {
  const size_t slash = label.find('/');
  if (slash == std::string::npos) return std::pair{label, threshold};
  int parsed = 0;
  try {
    parsed = std::stoi(label.substr(slash + 1));
  } catch (const std::logic_error&) {  // not a number, or out of range
  }
  if (parsed < 1) {
    return Status::InvalidArgument(
        "--policy " + label +
        ": the replication threshold after '/' must be a positive integer");
  }
  return std::pair{label.substr(0, slash), parsed};
}

StatusOr<SimTable> RunEtcArgs(const SimEtcArgs& a, const SimCommand& c) {
  StatusOr<EtcMatrix> m = LoadEtcFile(a.file);
  if (!m.ok()) return m.status();
  StatusOr<std::vector<SimFailure>> fails = ParseFailures(a.fails);
  if (!fails.ok()) return fails.status();
  if (a.paper003) {
    auto timed = TimedPaper003Failures(*m, a.policy);
    if (!timed.ok()) return timed.status();
    fails->insert(fails->end(), timed->begin(), timed->end());
  }
  StatusOr<SimResult> r = RunEtc(*m, a.policy, *fails, c.seed);
  if (!r.ok()) return r.status();
  SimTable table;
  table.rows = {RowFromResult(a.policy, *r)};
  table.complete = r->tasks_done == r->tasks;
  return table;
}

StatusOr<SimTable> RunDagArgs(const SimDagArgs& a, const SimCommand& c) {
  DagOptions options = a.options;
  StatusOr<std::vector<SimFailure>> fails = ParseFailures(a.fails);
  if (!fails.ok()) return fails.status();
  options.failures = *fails;
  const std::vector<std::string> modes =
      a.rewind == "all"
          ? std::vector<std::string>{"gtp-r", "gtp-c-r", "restart"}
          : std::vector<std::string>{a.rewind};
  SimTable table;
  for (const std::string& mode : modes) {
    std::vector<SimRow> runs;
    for (const std::string& file : a.files) {
      StatusOr<StgGraph> g = LoadStgFile(file);
      if (!g.ok()) return g.status();
      for (int i = 0; i < c.reps; ++i) {
        options.rewind = mode;
        options.seed = c.seed + i;
        StatusOr<DagResult> r = RunDag(*g, options);
        if (!r.ok()) return r.status();
        table.complete &= r->failed.tasks_done == r->failed.tasks;
        SimRow row = RowFromResult(mode, r->failed);
        row.values.insert(
            row.values.begin(),
            {{"nsl", r->nsl_r}, {"nsl_base", r->nsl}, {"aet", r->aet}});
        runs.push_back(std::move(row));
      }
    }
    table.rows.push_back(MeanRow(mode, runs));
  }
  return table;
}

// One bot run's row: the common figures plus the replication ones.
SimRow BotRow(const std::string& label, const SimResult& r) {
  SimRow row = RowFromResult(label, r);
  auto at = row.values.begin() + 3;  // after wasted_cpu
  row.values.insert(at,
                    {{"total_cpu", r.useful_cpu + r.wasted_cpu},
                     {"mean_task_end", r.mean_task_end},
                     {"replicas", static_cast<double>(r.replicas)},
                     {"replica_wins", static_cast<double>(r.replica_wins)}});
  row.values.push_back({"events_per_second",
                        r.wall_seconds > 0 ? r.events / r.wall_seconds : 0});
  return row;
}

StatusOr<SimTable> RunBotArgs(const SimBotArgs& a, const SimCommand& c) {
  StatusOr<std::vector<SimFailure>> fails = ParseFailures(a.fails);
  if (!fails.ok()) return fails.status();
  SimTable table;
  for (const std::string& label : a.policies) {
    auto policy = ParsePolicyLabel(label, a.options.threshold);
    if (!policy.ok()) return policy.status();
    std::vector<SimRow> runs;
    for (int i = 0; i < c.reps; ++i) {
      BotOptions o = a.options;
      o.policy = policy->first;
      o.threshold = policy->second;
      o.failures = *fails;
      o.seed = c.seed + i;
      StatusOr<SimResult> r = RunBot(o);
      if (!r.ok()) return r.status();
      table.complete &= r->tasks_done == r->tasks;
      runs.push_back(BotRow(label, *r));
    }
    table.rows.push_back(MeanRow(label, runs));
  }
  return table;
}

StatusOr<SimTable> RunVolatileArgs(const SimVolatileArgs& a,
                                   const SimCommand& c) {
  SimTable table;
  for (const std::string& policy : a.policies) {
    std::vector<SimRow> runs;
    for (int i = 0; i < c.reps; ++i) {
      VolatileOptions o = a.options;
      o.policy = policy;
      o.seed = c.seed + i;
      StatusOr<VolatileResult> r = RunVolatile(o);
      if (!r.ok()) return r.status();
      SimRow row = RowFromResult(policy, r->run);
      row.values.insert(row.values.begin(),
                        {"iterations", static_cast<double>(r->iterations)});
      row.values.push_back(
          {"program_sends", static_cast<double>(r->program_sends)});
      row.values.push_back({"data_sends", static_cast<double>(r->data_sends)});
      row.values.push_back(
          {"data_reused", static_cast<double>(r->data_reused)});
      runs.push_back(std::move(row));
    }
    table.rows.push_back(MeanRow(policy, runs));
  }
  return table;  // iterations by a deadline: complete by definition
}

StatusOr<SimTable> RunReliabilityArgs(const SimReliabilityArgs& a,
                                      const SimCommand& c) {
  if (a.options.tasks == 0 || a.options.slots < 1 || !(a.options.mean > 0))
    return Status::InvalidArgument(
        "--tasks, --slots and --mean must be positive");
  const std::vector<ReliabilityHost> hosts = Paper004Hosts();
  std::string history = a.history;
  std::unique_ptr<ScratchDir> scratch;  // holds the history unless --history
  if (history.empty()) {
    auto made =
        ScratchDir::Make(std::filesystem::temp_directory_path(), "gsrt-sim");
    if (!made.ok()) return made.status();
    scratch = std::move(made).value();
    history = scratch->path() + "/history.db";
  }
  ReliabilityOptions o = a.options;
  o.seed = c.seed;
  if (Status s = FillHistory(hosts, o, history); !s.ok()) return s;
  SimTable table;
  auto table1 = Table1FromHistory(hosts, o.mean, o.rank, history);
  if (!table1.ok()) return table1.status();
  table.preface_title = "table1";
  table.preface = std::move(*table1);
  for (const std::string& policy : a.policies) {
    std::vector<SimRow> runs;
    for (int i = 0; i < c.reps; ++i) {
      o.seed = c.seed + i;
      StatusOr<SimResult> r = RunWithHistory(hosts, o, policy, history);
      if (!r.ok()) return r.status();
      table.complete &= r->tasks_done == r->tasks;
      runs.push_back(BotRow(policy, *r));
    }
    table.rows.push_back(MeanRow(policy, runs));
  }
  return table;
}

}  // namespace

std::optional<int> ParseSimArgs(const std::vector<std::string>& args,
                                SimCommand* command, std::ostream& out,
                                std::ostream& err) {
  CLI::App app{kDescription, "gsrt-sim"};
  AddVersionFlag(app);
  app.require_subcommand(1);
  app.footer(kFooter);
  SimEtcArgs etc;
  SimDagArgs dag;
  SimBotArgs bot;
  SimVolatileArgs vol;
  SimReliabilityArgs rel;
  AddEtc(app, &etc, &command->json);
  AddDag(app, &dag, &command->json);
  AddBot(app, &bot, &command->json);
  AddVolatile(app, &vol, &command->json);
  AddReliability(app, &rel, &command->json);
  app.add_subcommand("policies",
                     "Every policy name gsrt-sim and gsrt.yaml's `policy:` "
                     "accept, one per line with what it does.")
      ->footer(kFooter);
  std::string gen_class;
  size_t gen_tasks = 512, gen_machines = 16;
  uint64_t gen_seed = 1;
  CLI::App* gen = app.add_subcommand(
      "etc-generate",
      "Prints a Braun-type ETC instance of a class (u_c_hihi ... u_i_lolo) "
      "made by the range-based method of Ali et al. 2000 / Braun et al. "
      "2001, in the Braun file format, for `gsrt-sim etc`.");
  gen->add_option("CLASS", gen_class, "u_X_YYZZ: X c/s/i, YY ZZ hi/lo")
      ->required();
  gen->add_option("--tasks", gen_tasks, "tasks (512)");
  gen->add_option("--machines", gen_machines, "machines (16)");
  gen->add_option("--seed", gen_seed, "random seed (1)");
  gen->footer(kFooter);
  std::string bound_file;
  CLI::App* bound = app.add_subcommand(
      "etc-bound",
      "Prints a lower bound on the optimal makespan of an ETC instance: the "
      "LP relaxation of R||Cmax with Lenstra-Shmoys-Tardos thresholds "
      "(GLPK). No mapping of the instance ends earlier.");
  bound->add_option("FILE", bound_file, "ETC file (Braun format)")
      ->required()
      ->check(CLI::ExistingFile);
  bound->footer(kFooter);
  uint32_t stg_tasks = 500;
  double stg_probability = 0.08;
  uint64_t stg_seed = 1;
  CLI::App* stg = app.add_subcommand(
      "stg-generate",
      "Prints a random task graph in the STG format for `gsrt-sim dag`, by "
      "the Standard Task Graph project's sameprob method: each pair i < j "
      "of tasks linked with probability P, times drawn in 1..10. Paper "
      "000's sizes: 500 tasks with P 0.08 (~10,000 edges), 1000 with P "
      "0.07 (~35,000).");
  stg->add_option("--tasks", stg_tasks, "tasks (500)")
      ->check(CLI::PositiveNumber);
  stg->add_option("--probability", stg_probability, "edge probability (0.08)")
      ->check(CLI::Range(0.0, 1.0));
  stg->add_option("--seed", stg_seed, "random seed (1)");
  stg->footer(kFooter);
  for (const char* name : {"etc", "dag", "bot", "volatile", "reliability"}) {
    CLI::App* sub = app.get_subcommand(name);
    sub->add_option("--seed", command->seed,
                    "random seed (1); runs are deterministic");
    sub->add_option("--reps", command->reps,
                    "repetitions with seeds seed..seed+reps-1");
    sub->footer(kFooter);
  }
  if (std::optional<int> stop = ParseCommandLine(app, args, out, err)) {
    return stop;
  }
  if (app.got_subcommand("policies")) {
    for (const PolicyInfo& p : PolicyCatalog()) {
      out << p.name
          << std::string(p.name.size() < 14 ? 14 - p.name.size() : 1, ' ')
          << p.description << "\n";
    }
    return kSimDone;
  }
  if (app.got_subcommand("stg-generate")) {
    out << FormatStg(GenerateStg(stg_tasks, stg_probability, stg_seed));
    return kSimDone;
  }
  if (app.got_subcommand("etc-bound")) {
    StatusOr<EtcMatrix> etc = LoadEtcFile(bound_file);
    StatusOr<Seconds> lb =
        etc.ok() ? LpLowerBound(*etc) : StatusOr<Seconds>(etc.status());
    if (!lb.ok()) {
      err << "gsrt-sim: " << lb.status().message() << "\n";
      return kSimBadInput;
    }
    char text[64];
    std::snprintf(text, sizeof text, "%.17g\n", *lb);
    out << text;
    return kSimDone;
  }
  if (app.got_subcommand("etc-generate")) {
    StatusOr<EtcClass> cls = ParseEtcClass(gen_class);
    if (!cls.ok() || gen_tasks == 0 || gen_machines == 0) {
      err << "gsrt-sim: "
          << (cls.ok() ? "--tasks and --machines must be positive"
                       : cls.status().message())
          << "\n";
      return kSimBadInput;
    }
    out << FormatEtc(GenerateEtc(gen_tasks, gen_machines, *cls, gen_seed));
    return kSimDone;
  }
  if (command->reps < 1) {
    err << "gsrt-sim: --reps must be at least 1\n";
    return kSimBadInput;
  }
  if (app.got_subcommand("etc")) command->experiment = std::move(etc);
  if (app.got_subcommand("dag")) command->experiment = std::move(dag);
  if (app.got_subcommand("bot")) command->experiment = std::move(bot);
  if (app.got_subcommand("volatile")) command->experiment = std::move(vol);
  if (app.got_subcommand("reliability")) command->experiment = std::move(rel);
  return std::nullopt;
}

StatusOr<SimTable> RunSimExperiment(const SimCommand& command) {
  struct Runner {
    const SimCommand& c;
    StatusOr<SimTable> operator()(const SimEtcArgs& a) {
      return RunEtcArgs(a, c);
    }
    StatusOr<SimTable> operator()(const SimDagArgs& a) {
      return RunDagArgs(a, c);
    }
    StatusOr<SimTable> operator()(const SimBotArgs& a) {
      return RunBotArgs(a, c);
    }
    StatusOr<SimTable> operator()(const SimVolatileArgs& a) {
      return RunVolatileArgs(a, c);
    }
    StatusOr<SimTable> operator()(const SimReliabilityArgs& a) {
      return RunReliabilityArgs(a, c);
    }
  };
  return std::visit(Runner{command}, command.experiment);
}

int RunSimCommand(const SimCommand& command, std::ostream& out,
                  std::ostream& err) {
  StatusOr<SimTable> table = RunSimExperiment(command);
  if (!table.ok()) {
    err << "gsrt-sim: " << table.status().message() << "\n";
    return kSimBadInput;
  }
  if (command.json) {
    if (table->preface.empty()) {
      out << FormatSimJson(table->rows);
    } else {  // {"table1": {...}, "runs": {...}}
      std::string rows = FormatSimJson(table->rows);
      std::string preface = FormatSimJson(table->preface);
      while (!rows.empty() && rows.back() == '\n') rows.pop_back();
      while (!preface.empty() && preface.back() == '\n') preface.pop_back();
      out << "{\"" << table->preface_title << "\":" << preface
          << ",\"runs\":" << rows << "}\n";
    }
  } else {
    if (!table->preface.empty()) {
      out << table->preface_title << "\n"
          << FormatSimTable(table->preface) << "\n";
    }
    out << FormatSimTable(table->rows);
  }
  return table->complete ? kSimDone : kSimIncomplete;
}

}  // namespace gs
