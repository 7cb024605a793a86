// What the master program has submitted: the files it names, the
// operations it calls, the tasks and versions of its graph, and what its
// synchronous calls returned until it takes it. The engine's collaborators
// read and change it; the engine owns it.
//
// Guarded by the engine's mutex (the engine's member is GUARDED_BY it).
#ifndef GSRT_RUNTIME_ENGINE_PROGRAM_H_
#define GSRT_RUNTIME_ENGINE_PROGRAM_H_

#include <string>
#include <unordered_map>
#include <utility>

#include "runtime/graph/file_table.h"
#include "runtime/graph/operation_table.h"
#include "runtime/graph/task_graph.h"

namespace gs {

struct Program {
  // `cwd`: the master's working directory, which relative names start at.
  explicit Program(std::string cwd) : files(std::move(cwd)), graph(&files) {}
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;

  FileTable files;
  OperationTable ops;
  TaskGraph graph;  // names its files in `files`
  // By task: the encoded results of a finished synchronous call, until
  // WaitForResults takes them.
  std::unordered_map<TaskId, std::string> results;
};

}  // namespace gs

#endif  // GSRT_RUNTIME_ENGINE_PROGRAM_H_
