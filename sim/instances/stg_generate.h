// Random task graphs by the Standard Task Graph project's "sameprob"
// method (Kasahara and Tobita): n tasks, each pair i < j joined by an edge
// i -> j with probability p, processing times drawn uniformly in 1..10,
// plus the dummy entry and exit. The set shipped in sim/data/stg
// has 50-task graphs only; paper 000 reports 500 and 1,000 tasks (about
// 10,000 and 35,000 edges), which this makes, seeded.
#ifndef GSRT_SIM_INSTANCES_STG_GENERATE_H_
#define GSRT_SIM_INSTANCES_STG_GENERATE_H_

#include <cstdint>
#include <string>

#include "sim/instances/stg_graph.h"

namespace gs {

StgGraph GenerateStg(uint32_t tasks, double edge_probability, uint64_t seed);

// The graph in the STG file format (ParseStg reads it back), with comment
// lines naming the generator, its parameters and the critical path.
std::string FormatStg(const StgGraph& graph);

}  // namespace gs

#endif  // GSRT_SIM_INSTANCES_STG_GENERATE_H_
