#include "runtime/graph/dot_writer.h"

namespace gs {

namespace {
const char* StateColor(TaskState s) {
  switch (s) {
    case TaskState::kDone:
      return "black";
    case TaskState::kFailed:
      return "red";
    case TaskState::kFutile:
      return "gray";
    default:
      return "blue";
  }
}
}  // namespace

std::string WriteDot(const TaskGraph& graph, const OperationTable& ops) {
  std::string out = "digraph gsrt {\n  node [shape=box];\n";
  for (TaskId t = 0; t < graph.num_tasks(); ++t) {
    const Task& task = graph.task(t);
    out += "  t" + std::to_string(t) + " [label=\"" + ops[task.op].name + " #" +
           std::to_string(t) + "\", color=" + StateColor(task.state) + "];\n";
  }
  for (TaskId t = 0; t < graph.num_tasks(); ++t) {
    const Task& task = graph.task(t);
    const FileAccess* acc = graph.accesses(t);
    // One edge per producer even when a task reads two of its outputs.
    TaskId last = kMasterTask;
    for (uint32_t i = 0; i < task.num_files; ++i) {
      if (acc[i].in == kNoVersion) continue;
      TaskId producer = graph.version(acc[i].in).producer;
      if (producer == kMasterTask || producer == last) continue;
      bool seen = false;
      for (uint32_t j = 0; j < i; ++j) {
        seen |= acc[j].in != kNoVersion &&
                graph.version(acc[j].in).producer == producer;
      }
      if (seen) continue;
      last = producer;
      out += "  t" + std::to_string(producer) + " -> t" + std::to_string(t) +
             ";\n";
    }
  }
  out += "}\n";
  return out;
}

}  // namespace gs
