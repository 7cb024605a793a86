// Turns a task of the graph into the JobSpec an adapter runs, and a worker's
// result text back into the caller's variables. Pure functions.
#ifndef GSRT_RUNTIME_ENGINE_JOB_BUILDER_H_
#define GSRT_RUNTIME_ENGINE_JOB_BUILDER_H_

#include <functional>
#include <string>
#include <string_view>

#include "gs/gs_abi.h"
#include "runtime/base/status.h"
#include "runtime/graph/operation_table.h"
#include "runtime/graph/task_graph.h"
#include "runtime/jobs/job.h"

namespace gs {

// Whether the values of a call can be sent: every array's length within
// bounds and its encoding within one argv string (array_codec.h). The
// message names the operation and the parameter and says what to do.
Status CheckCallValues(const gs_operation& op, const gs_arg* args);

// Appends the encoded scalar arguments of a call to `blob`: one
// NUL-terminated entry per non-File parameter (empty for `out`; arrays as
// "e0,e1,...").
void EncodeScalars(const gs_operation& op, const gs_arg* args,
                   std::string* blob);

// The job for `task`. `version_path(v)` says where version `v` lives.
JobSpec BuildJobSpec(const TaskGraph& graph, TaskId task,
                     const OperationInfo& op,
                     const std::function<std::string(VersionId)>& version_path,
                     std::string worker);

// Stores the worker's `results` (return value first, then every out/inout
// non-File parameter in order, one per line: result_values.h) into
// `return_slot` and the out/inout pointers of `args`. A string result
// replaces the caller's `char*` with a malloc'd copy (the old one freed);
// an array return value (`long[3] f(...)`) is stored in the pointer
// variable at `return_slot` as a malloc'd array the caller frees.
Status DecodeResults(const gs_operation& op, std::string_view results,
                     const gs_arg* args, void* return_slot);

}  // namespace gs

#endif  // GSRT_RUNTIME_ENGINE_JOB_BUILDER_H_
