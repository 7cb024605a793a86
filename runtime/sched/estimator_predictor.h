// The engine's Predictor: execution times from the ExecTimeEstimator (seeded
// from the history, taught by every successful job) unless an ExecOracle
// knows them (a simulation), and transfer times from a function the engine
// gives (its data layer knows where inputs are). The estimator numbers
// operations and hosts by name; this maps the engine's OpId and HostId onto
// those numbers.
#ifndef GSRT_RUNTIME_SCHED_ESTIMATOR_PREDICTOR_H_
#define GSRT_RUNTIME_SCHED_ESTIMATOR_PREDICTOR_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "runtime/graph/operation_table.h"
#include "runtime/sched/exec_oracle.h"
#include "runtime/sched/exec_time_estimator.h"
#include "runtime/sched/scheduler.h"

namespace gs {

class EstimatorPredictor : public Predictor {
 public:
  // `ops` names the engine's operations; it grows as tasks are submitted.
  explicit EstimatorPredictor(const OperationTable* ops) : ops_(ops) {}

  // Host `HostId` n is the n-th host added.
  void AddHost(const std::string& name) {
    hosts_.push_back(estimator_.InternHost(name));
  }
  // Given times replace learnt ones for the operations the oracle knows
  // (null: none).
  void set_oracle(std::shared_ptr<const ExecOracle> oracle) {
    oracle_ = std::move(oracle);
  }
  // The engine's estimate of moving a task's missing inputs to a host.
  void set_transfer(std::function<Seconds(TaskId, HostId)> f) {
    transfer_ = std::move(f);
  }
  // What the transfer function reads changed (a copy made or lost, a size,
  // a link's measured speed): the stamp moves.
  void TransfersChanged() { ++changes_; }
  // Whether transfer times hold still between TransfersChanged calls now
  // (false when a host's expected start delay moves on its own, a batch
  // queue's); unset: never known, the stamp is 0.
  void set_transfers_stable(std::function<bool()> f) {
    transfers_stable_ = std::move(f);
  }

  // What earlier runs measured (History::LoadExecTimes).
  void Seed(std::span<const ExecTimeSample> samples) {
    estimator_.Seed(samples);
    ++changes_;
  }
  // A successful job of `op` took `s` seconds on `host`.
  void Observe(OpId op, HostId host, Seconds s);

  Seconds ExecTime(OpId op, HostId host) const override;
  Seconds TransferTime(TaskId task, HostId host) const override {
    return transfer_ ? transfer_(task, host) : 0;
  }
  // The oracle's speeds, for the operations it times by work / speed.
  std::span<const double> speeds() const override {
    return oracle_ ? oracle_->speeds() : std::span<const double>();
  }
  Seconds Work(OpId op) const override;
  // Moves with every learnt time and every TransfersChanged.
  uint64_t stamp() const override {
    return transfers_stable_ && transfers_stable_() ? changes_ : 0;
  }

 private:
  uint32_t EstimatorOp(OpId op) const;
  int64_t OracleOp(OpId op) const;

  const OperationTable* ops_;
  std::shared_ptr<const ExecOracle> oracle_;
  // Filled lazily, as operations appear (ExecTime is const).
  mutable std::vector<int64_t> oracle_ops_;
  mutable ExecTimeEstimator estimator_;
  mutable std::vector<uint32_t> op_ids_;
  std::vector<uint32_t> hosts_;
  std::function<Seconds(TaskId, HostId)> transfer_;
  std::function<bool()> transfers_stable_;
  uint64_t changes_ = 1;
};

}  // namespace gs

#endif  // GSRT_RUNTIME_SCHED_ESTIMATOR_PREDICTOR_H_
