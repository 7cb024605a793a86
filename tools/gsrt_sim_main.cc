// gsrt-sim: the papers' experiments on the real gsrt engine, in virtual
// time, against simulated hosts (adapters/sim). Thin: the experiments are
// in runtime/sim/sim_experiments.h; this parses the command line and prints.
// docs/experiments.md lists the tables and the commands behind them.
//
// Exit codes: 0 done; 1 some task did not finish; 2 bad command line or
// input file.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>
#include <vector>

#include "runtime/sim/etc_matrix.h"
#include "runtime/sim/sim_experiments.h"
#include "runtime/sim/sim_report.h"
#include "runtime/sim/stg_graph.h"

namespace {

using gs::SimRow;

int Fail(const std::string& message) {
  std::fprintf(stderr, "gsrt-sim: %s\n", message.c_str());
  return 2;
}

struct Output {
  bool json = false;
  int Print(const std::vector<SimRow>& rows, bool complete) const {
    std::string text =
        json ? gs::FormatSimJson(rows) : gs::FormatSimTable(rows);
    std::fputs(text.c_str(), stdout);
    return complete ? 0 : 1;
  }
};

bool ParseFailures(const std::vector<std::string>& in,
                   std::vector<gs::SimFailure>* out, int* code) {
  for (const std::string& f : in) {
    auto parsed = gs::ParseSimFailure(f);
    if (!parsed.ok()) {
      *code = Fail(parsed.status().message());
      return false;
    }
    out->push_back(*parsed);
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
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
      "replica_wins (replicas that finished their task first)."};
  app.require_subcommand(1);
  app.footer(
      "Exit codes: 0 done; 1 some task did not finish; 2 bad command line or "
      "input.\nManual: docs/experiments.md");
  Output out;
  uint64_t seed = 1;
  int reps = 1;

  // --- etc ---
  auto* etc = app.add_subcommand(
      "etc",
      "A Braun ETC instance as a bag of independent tasks in file order, one "
      "one-slot host per machine, no data (papers 003, Braun et al.).");
  std::string etc_file, etc_policy = "mct";
  std::vector<std::string> etc_fails;
  bool paper003 = false;
  etc->add_option("FILE", etc_file, "ETC file (Braun format)")
      ->required()
      ->check(CLI::ExistingFile);
  etc->add_option("--policy,-p", etc_policy,
                  "met, mct, min-min, ftmet, ftmct, grank");
  etc->add_option("--fail", etc_fails,
                  "HOST@TIME[-UNTIL]: host (0-based) down at TIME virtual "
                  "seconds (back UP at UNTIL); repeatable");
  etc->add_flag("--paper003", paper003,
                "apply paper 003's failure list (8 of 16 machines), timed "
                "from a failure-free run of the same policy");
  etc->add_flag("--json", out.json, "one JSON object instead of a table");

  // --- dag ---
  auto* dag = app.add_subcommand(
      "dag",
      "STG task graphs (paper 000): seeded per-host execution times and edge "
      "sizes; a run without failure and one with a host failing (by default "
      "a seeded host, among those running a job then, at half the "
      "failure-free makespan); NSL, AET, RT, LR.");
  std::vector<std::string> dag_files;
  gs::DagOptions dopt;
  std::vector<std::string> dag_fails;
  std::string rewind = "gtp-c-r";
  dag->add_option("FILE", dag_files, "STG files")
      ->required()
      ->check(CLI::ExistingFile);
  dag->add_option("--hosts,-n", dopt.hosts, "number of hosts (default 5)");
  dag->add_option("--policy,-p", dopt.policy, "scheduling policy (mct)");
  dag->add_option("--rewind", rewind,
                  "gtp-r, gtp-c-r, restart, or all (one row each)")
      ->check(CLI::IsMember({"gtp-r", "gtp-c-r", "restart", "all"}));
  dag->add_option("--fail", dag_fails,
                  "HOST@TIME[-UNTIL] instead of the mid-run failure");
  dag->add_option("--ccr", dopt.ccr,
                  "communication to computation ratio of edges (0.5)");
  dag->add_option("--bandwidth", dopt.bandwidth, "bytes/s of links (1e6)");
  dag->add_option("--latency", dopt.latency, "seconds per transfer (0.01)");
  dag->add_flag("--json", out.json, "one JSON object instead of a table");

  // --- bot ---
  auto* bot = app.add_subcommand(
      "bot",
      "A bag of independent tasks on hosts of drawn speeds, with optional "
      "failures: the scale run and the "
      "replication experiments.");
  size_t bot_tasks = 1000, bot_hosts = 10;
  int bot_slots = 1;
  double bot_mean = 100, bot_mtbf = 0, bot_mttr = 0;
  std::vector<std::string> bot_policies{"mct"};
  std::string bot_trace;
  int bot_threshold = 0;
  std::vector<std::string> bot_fails;
  bot->add_option("--tasks", bot_tasks, "number of tasks (1000)");
  bot->add_option("--hosts", bot_hosts, "number of hosts (10)");
  bot->add_option("--slots", bot_slots, "slots per host (1)");
  bot->add_option("--mean", bot_mean, "mean task work, seconds at speed 1");
  double bot_spread = 0.5;
  bot->add_option("--speed-spread", bot_spread,
                  "host speeds drawn in [1 - S, 1 + S] (0.5); 0 = identical");
  bot->add_option("--policy,-p", bot_policies,
                  "scheduling policies, one row each (mct); wqr, wqr-ft and "
                  "wqdr-ft (paper 001) take an optional /N: their replication "
                  "threshold (wqdr-ft: the cap of RLTH = 1 + 1/SR), e.g. "
                  "wqr-ft/3. wqr runs without automatic restart, as the paper "
                  "defines it");
  bot->add_option("--threshold", bot_threshold,
                  "replication threshold of policies without /N (2)")
      ->check(CLI::PositiveNumber);
  bot->add_option("--fail", bot_fails, "HOST@TIME[-UNTIL]; repeatable");
  bot->add_option("--trace", bot_trace,
                  "availability trace: lines HOST TIME up|reclaimed|down");
  bot->add_option("--mtbf", bot_mtbf,
                  "mean seconds between host failures (Markov UP/DOWN); 0 = "
                  "none");
  bot->add_option("--mttr", bot_mttr, "mean seconds a failed host stays down");
  double bot_mtbf_spread = 0;
  bot->add_option("--mtbf-spread", bot_mtbf_spread,
                  "each host's MTBF drawn in [mtbf (1 - S), mtbf (1 + S)] "
                  "(0): hosts of unequal reliability");
  bot->add_flag("--json", out.json, "one JSON object instead of a table");

  // --- volatile ---
  auto* vol = app.add_subcommand(
      "volatile",
      "Paper 002: iterations of m tightly-coupled tasks on hosts that are "
      "UP, RECLAIMED or DOWN by per-host Markov chains drawn from the seed; "
      "iterations completed before the deadline.");
  gs::VolatileOptions vopt;
  std::vector<std::string> vol_policies{"ip", "ie", "iy", "iay"};
  vol->add_option("--policy,-p", vol_policies,
                  "policies, one row each (ip ie iy iay, proactive c-h "
                  "such as y-ie)");
  vol->add_option("--hosts", vopt.hosts, "number of hosts (20)");
  vol->add_option("--m", vopt.m, "tasks per iteration (10)");
  vol->add_option("--deadline", vopt.deadline, "virtual seconds (10000)");
  vol->add_option("--slot", vopt.slot, "Markov time slot, seconds (1)");
  vol->add_option("--w-min", vopt.w_min, "shortest task time on a host (10)");
  vol->add_option("--w-max", vopt.w_max, "longest task time on a host (30)");
  vol->add_option("--max-slots", vopt.max_slots, "slots per host, 1..N (2)");
  vol->add_flag("--json", out.json, "one JSON object instead of a table");

  for (auto* sub : {etc, dag, bot, vol}) {
    sub->add_option("--seed", seed, "random seed (1); runs are deterministic");
    sub->add_option("--reps", reps, "repetitions with seeds seed..seed+reps-1");
  }
  CLI11_PARSE(app, argc, argv);
  if (reps < 1) return Fail("--reps must be at least 1");
  int code = 0;

  if (*etc) {
    auto m = gs::LoadEtcFile(etc_file);
    if (!m.ok()) return Fail(m.status().message());
    std::vector<gs::SimFailure> fails;
    if (!ParseFailures(etc_fails, &fails, &code)) return code;
    if (paper003) {
      auto timed = gs::TimedPaper003Failures(*m, etc_policy);
      if (!timed.ok()) return Fail(timed.status().message());
      fails.insert(fails.end(), timed->begin(), timed->end());
    }
    auto r = gs::RunEtc(*m, etc_policy, fails, seed);
    if (!r.ok()) return Fail(r.status().message());
    return out.Print({gs::RowFromResult(etc_policy, *r)},
                     r->tasks_done == r->tasks);
  }

  if (*dag) {
    if (!ParseFailures(dag_fails, &dopt.failures, &code)) return code;
    std::vector<std::string> modes =
        rewind == "all"
            ? std::vector<std::string>{"gtp-r", "gtp-c-r", "restart"}
            : std::vector<std::string>{rewind};
    std::vector<SimRow> rows;
    bool complete = true;
    for (const std::string& mode : modes) {
      std::vector<SimRow> runs;
      for (const std::string& file : dag_files) {
        auto g = gs::LoadStgFile(file);
        if (!g.ok()) return Fail(g.status().message());
        for (int i = 0; i < reps; ++i) {
          gs::DagOptions o = dopt;
          o.rewind = mode;
          o.seed = seed + i;
          auto r = gs::RunDag(*g, o);
          if (!r.ok()) return Fail(r.status().message());
          complete &= r->failed.tasks_done == r->failed.tasks;
          SimRow row = gs::RowFromResult(mode, r->failed);
          row.values.insert(
              row.values.begin(),
              {{"nsl", r->nsl_r}, {"nsl_base", r->nsl}, {"aet", r->aet}});
          runs.push_back(std::move(row));
        }
      }
      rows.push_back(gs::MeanRow(mode, runs));
    }
    return out.Print(rows, complete);
  }

  if (*bot) {
    std::vector<gs::SimFailure> fails;
    if (!ParseFailures(bot_fails, &fails, &code)) return code;
    std::vector<SimRow> rows;
    bool complete = true;
    for (const std::string& label : bot_policies) {
      std::string policy = label;
      int threshold = bot_threshold;
      if (auto slash = label.find('/'); slash != std::string::npos) {
        policy = label.substr(0, slash);
        try {
          threshold = std::stoi(label.substr(slash + 1));
        } catch (...) {
          threshold = 0;
        }
        if (threshold < 1) {
          return Fail("--policy " + label +
                      ": the replication threshold after '/' must be a "
                      "positive integer");
        }
      }
      std::vector<SimRow> runs;
      for (int i = 0; i < reps; ++i) {
        gs::BotOptions o;
        o.tasks = bot_tasks;
        o.hosts = bot_hosts;
        o.slots = bot_slots;
        o.mean = bot_mean;
        o.speed_spread = bot_spread;
        o.policy = policy;
        o.threshold = threshold;
        o.failures = fails;
        o.trace = bot_trace;
        o.mtbf = bot_mtbf;
        o.mttr = bot_mttr;
        o.mtbf_spread = bot_mtbf_spread;
        o.seed = seed + i;
        auto r = gs::RunBot(o);
        if (!r.ok()) return Fail(r.status().message());
        complete &= r->tasks_done == r->tasks;
        SimRow row = gs::RowFromResult(label, *r);
        auto at = row.values.begin() + 3;  // after wasted_cpu
        row.values.insert(
            at, {{"total_cpu", r->useful_cpu + r->wasted_cpu},
                 {"mean_task_end", r->mean_task_end},
                 {"replicas", static_cast<double>(r->replicas)},
                 {"replica_wins", static_cast<double>(r->replica_wins)}});
        row.values.push_back(
            {"events_per_second",
             r->wall_seconds > 0 ? r->events / r->wall_seconds : 0});
        runs.push_back(std::move(row));
      }
      rows.push_back(gs::MeanRow(label, runs));
    }
    return out.Print(rows, complete);
  }
  if (*vol) {
    std::vector<SimRow> rows;
    for (const std::string& policy : vol_policies) {
      std::vector<SimRow> runs;
      for (int i = 0; i < reps; ++i) {
        gs::VolatileOptions o = vopt;
        o.policy = policy;
        o.seed = seed + i;
        auto r = gs::RunVolatile(o);
        if (!r.ok()) return Fail(r.status().message());
        SimRow row = gs::RowFromResult(policy, r->run);
        row.values.insert(row.values.begin(),
                          {"iterations", static_cast<double>(r->iterations)});
        runs.push_back(std::move(row));
      }
      rows.push_back(gs::MeanRow(policy, runs));
    }
    return out.Print(rows, true);
  }
  return 0;
}
