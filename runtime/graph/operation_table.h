// The operations a master program has called, by their generated
// descriptors (gs_operation), numbered in order of first use.
#ifndef GSRT_RUNTIME_GRAPH_OPERATION_TABLE_H_
#define GSRT_RUNTIME_GRAPH_OPERATION_TABLE_H_

#include <string>
#include <unordered_map>
#include <vector>

#include "gs/gs_abi.h"
#include "runtime/graph/task_graph.h"

namespace gs {

struct OperationInfo {
  const gs_operation* desc = nullptr;
  std::string name;
  int num_files = 0;
  // Whether a call waits for the task: non-void return or out/inout scalars.
  bool synchronous = false;
};

class OperationTable {
 public:
  OpId Intern(const gs_operation* op) {
    // A master calls one operation many times in a row: skip the lookup.
    if (op == last_ && !ops_.empty()) return last_id_;
    if (auto it = ids_.find(op); it != ids_.end()) {
      last_ = op;
      last_id_ = it->second;
      return last_id_;
    }
    OpId id = static_cast<OpId>(ops_.size());
    OperationInfo info{op, op->name, 0, op->return_type != GS_TYPE_VOID};
    for (int i = 0; i < op->num_params; ++i) {
      const gs_param_desc& p = op->params[i];
      if (p.type == GS_TYPE_FILE)
        ++info.num_files;
      else if (p.dir != GS_DIR_IN)
        info.synchronous = true;
    }
    ops_.push_back(std::move(info));
    ids_.emplace(op, id);
    last_ = op;
    last_id_ = id;
    return id;
  }
  const OperationInfo& operator[](OpId id) const { return ops_[id]; }
  size_t size() const { return ops_.size(); }

 private:
  std::vector<OperationInfo> ops_;
  std::unordered_map<const gs_operation*, OpId> ids_;
  const gs_operation* last_ = nullptr;
  OpId last_id_ = 0;
};

}  // namespace gs

#endif  // GSRT_RUNTIME_GRAPH_OPERATION_TABLE_H_
