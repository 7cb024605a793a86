// etc_table: regenerates the paper 003 comparison of docs/experiments.md
// (table 2 and 3 style) from the Braun instances. Thin: the mapping is
// runtime/etc_mapping, the paper's figures runtime/etc_paper003.
//
//   etc_table [--data DIR]   (DIR holds braun/; default: the shared data
//                             directory this build was configured with)
#include <cstdio>
#include <string>
#include <string_view>

#include "runtime/sim/etc_mapping.h"
#include "runtime/sim/etc_paper003.h"

namespace {

struct Runs {
  gs::EtcRun met, ftmet, mct, ftmct;  // with the paper's failures
  gs::EtcRun met0, mct0, minmin0;     // without failures
};

gs::StatusOr<Runs> RunInstance(const gs::EtcMatrix& etc) {
  auto failures = gs::Paper003Failures512x16();
  Runs r;
  struct Job {
    const char* policy;
    bool with_failures;
    gs::EtcRun* out;
  } jobs[] = {{"met", true, &r.met},         {"ftmet", true, &r.ftmet},
              {"mct", true, &r.mct},         {"ftmct", true, &r.ftmct},
              {"met", false, &r.met0},       {"mct", false, &r.mct0},
              {"min-min", false, &r.minmin0}};
  for (const Job& j : jobs) {
    auto run = gs::MapWithPolicy(
        etc, j.policy,
        j.with_failures ? failures : std::vector<gs::MachineFailure>{});
    if (!run.ok()) return run.status().WithContext(j.policy);
    *j.out = std::move(run).value();
  }
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  std::string data = GSRT_SHARED_DATA;
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    if (a == "--data" && i + 1 < argc) {
      data = argv[++i];
    } else {
      std::fprintf(stderr, "usage: %s [--data DIR]\n", argv[0]);
      return 2;
    }
  }
  // Everything is printed at the end, so an error leaves no half table.
  std::string makespan =
      "Makespan with paper 003's failures (ours / paper table 2)\n\n"
      "| instance | MET | FTMET | MCT | FTMCT | lost MET/MCT |\n"
      "|---|---|---|---|---|---|\n";
  std::string util =
      "\nUtilisation (ours / paper table 3)\n\n"
      "| instance | MET | FTMET | MCT | FTMCT |\n|---|---|---|---|---|\n";
  std::string clean =
      "\nNo failures (ours; reference in /work/shared/data/README.md)\n\n"
      "| instance | MET | MCT | Min-Min |\n|---|---|---|---|\n";
  char buf[512];
  for (const gs::Paper003Row& row : gs::Paper003Table512x16()) {
    std::string path = data + "/braun/" + std::string(row.instance);
    auto etc = gs::LoadEtcFile(path);
    if (!etc.ok()) {
      std::fprintf(stderr, "etc_table: %s\n", etc.status().ToString().c_str());
      return 1;
    }
    auto runs = RunInstance(*etc);
    if (!runs.ok()) {
      std::fprintf(stderr, "etc_table: %s: %s\n", path.c_str(),
                   runs.status().ToString().c_str());
      return 1;
    }
    const Runs& r = *runs;
    std::string name(row.instance);
    std::snprintf(
        buf, sizeof buf,
        "| %s | %.4E / %.4E | %.4E / %.4E | %.4E / %.4E | %.4E / %.4E | "
        "%zu / %zu |\n",
        name.c_str(), r.met.makespan, row.met, r.ftmet.makespan, row.ftmet,
        r.mct.makespan, row.mct, r.ftmct.makespan, row.ftmct, r.met.num_lost,
        r.mct.num_lost);
    std::snprintf(buf, sizeof buf,
                  "| %s | %.4f / %.4f | %.4f / %.4f | %.4f / %.4f | "
                  "%.4f / %.4f |\n",
                  name.c_str(), r.met.utilisation_used, row.met_u,
                  r.ftmet.utilisation_used, row.ftmet_u, r.mct.utilisation_used,
                  row.mct_u, r.ftmct.utilisation_used, row.ftmct_u);
    util += buf;
    std::snprintf(buf, sizeof buf, "| %s | %.2f | %.2f | %.2f |\n",
                  name.c_str(), r.met0.makespan, r.mct0.makespan,
                  r.minmin0.makespan);
    clean += buf;
  }
  std::printf("%s%s%s", makespan.c_str(), util.c_str(), clean.c_str());
  return 0;
}
