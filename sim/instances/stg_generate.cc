#include "sim/instances/stg_generate.h"

#include <random>
#include <sstream>

namespace gs {

StgGraph GenerateStg(uint32_t tasks, double p, uint64_t seed) {
  std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ull + 7);
  std::uniform_real_distribution<double> coin(0, 1);
  std::uniform_int_distribution<uint32_t> time(1, 10);
  StgGraph g;
  g.tasks.resize(tasks + 2);
  std::vector<bool> has_succ(tasks + 2, false);
  uint64_t edges = 0;
  for (uint32_t j = 1; j <= tasks; ++j) {
    g.tasks[j].processing_time = time(rng);
    for (uint32_t i = 1; i < j; ++i) {
      if (coin(rng) >= p) continue;
      g.tasks[j].preds.push_back(i);
      has_succ[i] = true;
      ++edges;
    }
    // The format links a task without predecessor to the dummy entry.
    if (g.tasks[j].preds.empty()) g.tasks[j].preds.push_back(0);
  }
  for (uint32_t i = 1; i <= tasks; ++i)
    if (!has_succ[i]) g.tasks[tasks + 1].preds.push_back(i);
  g.comments = {
      " Random Task Graph (gsrt-sim stg-generate)",
      " Precedence constraints generator : sameprob",
      "   Random Seed       : " + std::to_string(seed),
      "   Tasks             : " + std::to_string(tasks) + " (+dummy tasks : 2)",
      "   Edges             : " + std::to_string(edges),
      "   Probability       : " + std::to_string(p),
      " Task processing time generator : unifproc (1..10)",
      " CP Length           : " + std::to_string(StgCriticalPathLength(g))};
  return g;
}

std::string FormatStg(const StgGraph& g) {
  std::ostringstream out;
  out << g.num_real_tasks() << "\n";
  for (uint32_t id = 0; id < g.tasks.size(); ++id) {
    const StgTask& t = g.tasks[id];
    const size_t preds = id == 0 ? 0 : t.preds.size();
    out << id << " " << t.processing_time << " " << preds;
    if (id != 0)
      for (uint32_t p : t.preds) out << " " << p;
    out << "\n";
  }
  for (const std::string& c : g.comments) out << "#" << c << "\n";
  return out.str();
}

}  // namespace gs
