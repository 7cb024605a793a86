#include "runtime/graph/wait_lists.h"

namespace gs {

void WaitLists::Append(WaitList* list, TaskId t) {
  uint32_t i;
  if (free_ != WaitList::kEnd) {
    i = free_;
    free_ = nodes_[i].next;
    nodes_[i] = Node{t, WaitList::kEnd};
  } else {
    i = static_cast<uint32_t>(nodes_.size());
    nodes_.emplace_back(Node{t, WaitList::kEnd});
  }
  if (list->empty()) {
    list->head = i;
  } else {
    nodes_[list->tail].next = i;
  }
  list->tail = i;
}

void WaitLists::Remove(WaitList* list, TaskId t) {
  uint32_t prev = WaitList::kEnd;
  for (uint32_t i = list->head; i != WaitList::kEnd;) {
    uint32_t next = nodes_[i].next;
    if (nodes_[i].task != t) {
      prev = i;
    } else {
      (prev == WaitList::kEnd ? list->head : nodes_[prev].next) = next;
      if (list->tail == i) list->tail = prev;
      nodes_[i].next = free_;
      free_ = i;
    }
    i = next;
  }
}

void WaitLists::Clear(WaitList* list) {
  if (list->empty()) return;
  nodes_[list->tail].next = free_;
  free_ = list->head;
  *list = WaitList{};
}

std::vector<TaskId> WaitLists::Items(const WaitList& list) const {
  std::vector<TaskId> out;
  ForEach(list, [&](TaskId t) { out.push_back(t); });
  return out;
}

}  // namespace gs
