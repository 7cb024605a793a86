// The task graph in Graphviz DOT: one node per task labelled with its
// operation, one edge per true (read after write) dependency.
#ifndef GSRT_RUNTIME_GRAPH_DOT_WRITER_H_
#define GSRT_RUNTIME_GRAPH_DOT_WRITER_H_

#include <string>

#include "runtime/graph/operation_table.h"
#include "runtime/graph/task_graph.h"

namespace gs {

std::string WriteDot(const TaskGraph& graph, const OperationTable& ops);

}  // namespace gs

#endif  // GSRT_RUNTIME_GRAPH_DOT_WRITER_H_
