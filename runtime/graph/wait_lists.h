// The tasks waiting for each version, as FIFO lists in one shared pool.
//
// Most written versions get exactly one waiting task (the next call that
// reads them); a std::vector per version would cost a heap allocation per
// task and 24 bytes in every version. Here a version holds two indices
// (WaitList) and each entry is 8 bytes in a pool that reuses freed entries.
#ifndef GSRT_RUNTIME_GRAPH_WAIT_LISTS_H_
#define GSRT_RUNTIME_GRAPH_WAIT_LISTS_H_

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "runtime/graph/stable_array.h"
#include "runtime/jobs/job.h"

namespace gs {

// One list: where it starts and ends in its WaitLists pool.
struct WaitList {
  static constexpr uint32_t kEnd = std::numeric_limits<uint32_t>::max();
  uint32_t head = kEnd;
  uint32_t tail = kEnd;
  bool empty() const { return head == kEnd; }
};

class WaitLists {
 public:
  // Appends `t` at the end of `list`.
  void Append(WaitList* list, TaskId t);
  // Removes every entry of `t` from `list`, keeping the others' order.
  void Remove(WaitList* list, TaskId t);
  // Empties `list`; its entries are reused by later appends.
  void Clear(WaitList* list);

  // Calls f(task) for each entry, in the order appended.
  template <class F>
  void ForEach(const WaitList& list, F&& f) const {
    for (uint32_t i = list.head; i != WaitList::kEnd; i = nodes_[i].next)
      f(nodes_[i].task);
  }
  std::vector<TaskId> Items(const WaitList& list) const;

  // Entries in use or free, and their bytes.
  size_t pool_size() const { return nodes_.size(); }
  size_t MemoryUsage() const { return nodes_.capacity() * sizeof(Node); }

 private:
  struct Node {
    TaskId task;
    uint32_t next;
  };
  StableArray<Node> nodes_;
  uint32_t free_ = WaitList::kEnd;  // freed entries, linked by `next`
};

}  // namespace gs

#endif  // GSRT_RUNTIME_GRAPH_WAIT_LISTS_H_
