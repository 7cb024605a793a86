#include "sim/experiments/etc_table.h"

#include <CLI/CLI.hpp>
#include <cstdio>

#include "runtime/base/command_line.h"
#include "sim/experiments/etc_paper003.h"
#include "sim/runner/etc_mapping.h"

namespace gs {

namespace {

struct Runs {
  EtcRun met, ftmet, mct, ftmct;  // with the paper's failures
  EtcRun met0, mct0, minmin0;     // without failures
};

StatusOr<Runs> RunInstance(const EtcMatrix& etc) {
  const std::vector<MachineFailure> failures = Paper003Failures512x16();
  Runs r;
  struct Job {
    const char* policy;
    bool with_failures;
    EtcRun* out;
  } jobs[] = {{"met", true, &r.met},         {"ftmet", true, &r.ftmet},
              {"mct", true, &r.mct},         {"ftmct", true, &r.ftmct},
              {"met", false, &r.met0},       {"mct", false, &r.mct0},
              {"min-min", false, &r.minmin0}};
  for (const Job& j : jobs) {
    auto run = MapWithPolicy(
        etc, j.policy,
        j.with_failures ? failures : std::vector<MachineFailure>{});
    if (!run.ok()) return run.status().WithContext(j.policy);
    *j.out = std::move(run).value();
  }
  return r;
}

std::string Printed(const char* format, auto... values) {
  char buf[512];
  std::snprintf(buf, sizeof buf, format, values...);
  return buf;
}

}  // namespace

std::optional<int> ParseEtcTableArgs(const std::vector<std::string>& args,
                                     EtcTableOptions* options,
                                     std::ostream& out, std::ostream& err) {
  CLI::App app{
      "etc_table: regenerates paper 003's comparison of docs/experiments.md "
      "(makespan and utilisation with the paper's failures, beside the "
      "paper's figures, and the failure-free reference) from the Braun "
      "instances.",
      "etc_table"};
  app.footer(
      "Exit codes: 0 done; 1 an instance is missing or malformed; 2 "
      "bad command line.");
  app.add_option("--data", options->data_dir,
                 "directory holding braun/ (default: sim/data of "
                 "the source tree this build was configured from)")
      ->type_name("DIR")
      ->capture_default_str();
  return ParseCommandLine(app, args, out, err);
}

StatusOr<std::string> Paper003Tables(const std::string& data_dir) {
  std::string makespan =
      "Makespan with paper 003's failures (ours / paper table 2)\n\n"
      "| instance | MET | FTMET | MCT | FTMCT | lost MET/MCT |\n"
      "|---|---|---|---|---|---|\n";
  std::string util =
      "\nUtilisation (ours / paper table 3)\n\n"
      "| instance | MET | FTMET | MCT | FTMCT |\n|---|---|---|---|---|\n";
  std::string clean =
      "\nNo failures (ours; reference in sim/data/README.md)\n\n"
      "| instance | MET | MCT | Min-Min |\n|---|---|---|---|\n";
  for (const Paper003Row& row : Paper003Table512x16()) {
    const std::string path = data_dir + "/braun/" + std::string(row.instance);
    StatusOr<EtcMatrix> etc = LoadEtcFile(path);
    if (!etc.ok()) return etc.status();
    StatusOr<Runs> runs = RunInstance(*etc);
    if (!runs.ok()) return runs.status().WithContext(path);
    const Runs& r = *runs;
    const std::string name(row.instance);
    makespan += Printed(
        "| %s | %.4E / %.4E | %.4E / %.4E | %.4E / %.4E | %.4E / %.4E | "
        "%zu / %zu |\n",
        name.c_str(), r.met.makespan, row.met, r.ftmet.makespan, row.ftmet,
        r.mct.makespan, row.mct, r.ftmct.makespan, row.ftmct, r.met.num_lost,
        r.mct.num_lost);
    util += Printed(
        "| %s | %.4f / %.4f | %.4f / %.4f | %.4f / %.4f | %.4f / %.4f |\n",
        name.c_str(), r.met.utilisation_used, row.met_u,
        r.ftmet.utilisation_used, row.ftmet_u, r.mct.utilisation_used,
        row.mct_u, r.ftmct.utilisation_used, row.ftmct_u);
    clean += Printed("| %s | %.2f | %.2f | %.2f |\n", name.c_str(),
                     r.met0.makespan, r.mct0.makespan, r.minmin0.makespan);
  }
  return makespan + util + clean;
}

int RunEtcTable(const EtcTableOptions& options, std::ostream& out,
                std::ostream& err) {
  StatusOr<std::string> tables = Paper003Tables(options.data_dir);
  if (!tables.ok()) {
    err << "etc_table: " << tables.status().ToString() << "\n";
    return 1;
  }
  out << *tables;
  return 0;
}

}  // namespace gs
