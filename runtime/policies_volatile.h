// Passive heuristics for tightly-coupled iterations on volatile hosts
// (paper 002, section V.A): IP, IE, IY and IAY. A configuration of m tasks
// is built one task at a time; each goes to the UP host with a free slot
// that maximises the criterion of the configuration with it added:
//   IP   probability of success P
//   IE   minus the expected duration E
//   IY   yield P / (E + t), t = time since the iteration began
//   IAY  apparent yield P / E
// P and E come from runtime/volatile_model.h (its approximation is stated
// there); the workload of a configuration is max_q x_q w_q, w_q the
// predicted time of one task on q. All m tasks start together or none do.
#ifndef GSRT_RUNTIME_POLICIES_VOLATILE_H_
#define GSRT_RUNTIME_POLICIES_VOLATILE_H_

#include <memory>
#include <string>
#include <unordered_set>

#include "runtime/scheduler.h"
#include "runtime/volatile_model.h"

namespace gs {

enum class VolatileCriterion : uint8_t { kP, kE, kY, kAY };

class VolatilePolicy : public Policy {
 public:
  VolatilePolicy(std::string name, VolatileCriterion criterion)
      : name_(std::move(name)), criterion_(criterion) {}
  std::string_view name() const override { return name_; }

  // Not owned. Without it every host is taken as always UP (P = 1) and a
  // configuration is whatever is ready.
  void set_hosts(const VolatileHosts* hosts) { hosts_ = hosts; }

  Choice Choose(const ReadyTask& task, const SlotBoard& board,
                const Predictor& predictor) override;
  void Place(const std::vector<ReadyTask>& ready, const SchedulingInput& in,
             std::vector<Placement>* out) override;

  // P and E (seconds) of a configuration: x[h] tasks on host h.
  struct Measure {
    double p = 1;
    Seconds e = 0;
  };
  Measure Evaluate(const std::vector<uint32_t>& x, OpId op,
                   const Predictor& predictor) const;
  // The criterion's value (higher is better) at `elapsed` seconds into the
  // iteration.
  double Score(const Measure& m, Seconds elapsed) const;

 private:
  std::string name_;
  VolatileCriterion criterion_;
  const VolatileHosts* hosts_ = nullptr;
  std::unordered_set<TaskId> seen_;
  Seconds iteration_start_ = 0;
};

// "ip", "ie", "iy", "iay".
std::unique_ptr<Policy> MakeVolatilePolicy(std::string_view name);
// Gives `hosts` to `policy` if it is a volatile policy; returns whether.
bool AttachVolatileHosts(Policy& policy, const VolatileHosts* hosts);

}  // namespace gs

#endif  // GSRT_RUNTIME_POLICIES_VOLATILE_H_
