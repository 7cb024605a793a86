// Kasahara Standard Task Graph (STG) files: the DAG shapes paper 000 runs its
// rewinding experiments on. Format (see sim/data/README.md): the number
// of tasks n on the first line, then n + 2 lines `id processing_time
// number_of_predecessors pred...` for ids 0..n+1, where 0 is a dummy entry
// and n+1 a dummy exit, both of processing time 0; lines starting with '#'
// are comments (the generator's parameters, the critical path length).
//
// The dummies are kept as tasks 0 and n+1: they give the graph the single
// entry node the paper measures Level from, and the single exit that makes
// every real task have a successor.
#ifndef GSRT_SIM_INSTANCES_STG_GRAPH_H_
#define GSRT_SIM_INSTANCES_STG_GRAPH_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/base/status.h"

namespace gs {

struct StgTask {
  uint32_t processing_time = 0;
  std::vector<uint32_t> preds;  // predecessor ids, as listed in the file
};

struct StgGraph {
  // Indexed by id: tasks[0] is the dummy entry, tasks.back() the dummy exit.
  std::vector<StgTask> tasks;
  // The comment lines, without the leading '#', in file order.
  std::vector<std::string> comments;

  uint32_t num_real_tasks() const {
    return static_cast<uint32_t>(tasks.size() - 2);
  }
  uint32_t entry() const { return 0; }
  uint32_t exit() const { return static_cast<uint32_t>(tasks.size() - 1); }
  bool is_dummy(uint32_t id) const { return id == entry() || id == exit(); }
};

// Parses STG text; `source` names it in errors ("file.stg:7: ...").
// Rejects, with the line: a malformed or out-of-range number, ids out of
// sequence, a wrong predecessor count, a predecessor that is not a task,
// repeated or the task itself, a dummy with a processing time, an entry with
// predecessors, a real task without predecessor or successor (the format
// links them to the dummies), content after the n + 2 task lines, a cycle.
StatusOr<StgGraph> ParseStg(std::string_view text, std::string_view source);

// Reads and parses the file at `path`.
StatusOr<StgGraph> LoadStgFile(const std::string& path);

// Successor lists, by id, in increasing id order.
std::vector<std::vector<uint32_t>> StgSuccessors(const StgGraph& graph);

// Level of each task as paper 000 defines it: the depth in edges from the
// entry node (the dummy entry is at 0), taking the longest path.
std::vector<uint32_t> StgLevels(const StgGraph& graph);

// Length of the critical path: the largest sum of processing times along a
// path from entry to exit (the "CP Length" the STG comments state).
uint64_t StgCriticalPathLength(const StgGraph& graph);

}  // namespace gs

#endif  // GSRT_SIM_INSTANCES_STG_GRAPH_H_
