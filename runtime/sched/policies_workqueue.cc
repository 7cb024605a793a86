#include "runtime/sched/policies_workqueue.h"

namespace gs {

Policy::Choice WorkQueuePolicy::Choose(const ReadyTask& task,
                                       const SlotBoard& board,
                                       const Predictor& predictor) {
  auto try_host = [&](HostId h) -> Choice {
    if (h >= board.num_hosts() || !board.Fits(h, task.need) ||
        !board.FreeNowFor(h, task.need))
      return {};
    return {h, board.now() + predictor.ExecTime(task.op, h)};
  };
  for (HostId h : order_) {
    if (Choice c = try_host(h); c.host != kNoHost) return c;
  }
  for (HostId h = 0; h < board.num_hosts(); ++h) {
    if (Choice c = try_host(h); c.host != kNoHost) return c;
  }
  return {};  // no free slot anywhere: the task waits for one
}

std::unique_ptr<Policy> MakeWorkQueuePolicy(std::string_view name) {
  ReplicationMode mode =
      name == "wqdr-ft" ? ReplicationMode::kDynamic : ReplicationMode::kFixed;
  return std::make_unique<WorkQueuePolicy>(std::string(name), mode);
}

}  // namespace gs
