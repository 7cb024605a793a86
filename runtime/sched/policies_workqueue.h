// WorkQueue (paper 001, the base of WQR, WQR-FT and WQDR-FT): tasks in
// queue order go to whichever host has a free slot now, knowing nothing of
// execution times; a task waits when no slot is free. The hosts are tried
// in a given order: index order for WQR and WQR-FT, best success rate first
// for WQDR-FT (the engine keeps that order current). Replication itself is
// the engine's (runtime/sched/replication.h), driven by the policy's mode.
#ifndef GSRT_RUNTIME_SCHED_POLICIES_WORKQUEUE_H_
#define GSRT_RUNTIME_SCHED_POLICIES_WORKQUEUE_H_

#include <memory>
#include <string>
#include <vector>

#include "runtime/config/config.h"
#include "runtime/sched/scheduler.h"

namespace gs {

class WorkQueuePolicy : public Policy {
 public:
  WorkQueuePolicy(std::string name, ReplicationMode replication)
      : name_(std::move(name)), replication_(replication) {}
  std::string_view name() const override { return name_; }

  // The replication this policy asks the engine for, and the host order.
  Needs needs() const override {
    return {.replication = replication_, .host_order = true};
  }
  void SetHostOrder(std::vector<HostId> order) override {
    order_ = std::move(order);
  }
  const std::vector<HostId>& host_order() const { return order_; }

  Choice Choose(const ReadyTask& task, const SlotBoard& board,
                const Predictor& predictor) override;

 private:
  std::string name_;
  ReplicationMode replication_;
  std::vector<HostId> order_;
};

// "wqr" and "wqr-ft": fixed replication; "wqdr-ft": dynamic.
std::unique_ptr<Policy> MakeWorkQueuePolicy(std::string_view name);

}  // namespace gs

#endif  // GSRT_RUNTIME_SCHED_POLICIES_WORKQUEUE_H_
