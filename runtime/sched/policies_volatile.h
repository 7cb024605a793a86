// Passive heuristics for tightly-coupled iterations on volatile hosts
// (paper 002, section V.A): IP, IE, IY and IAY. A configuration of m tasks
// is built one task at a time; each goes to the UP host with a free slot
// that maximises the criterion of the configuration with it added:
//   IP   probability of success P
//   IE   minus the expected duration E
//   IY   yield P / (E + t), t = time since the iteration began
//   IAY  apparent yield P / E
// All m tasks start together or none do; without a fixed m (live runs),
// every ready task that fits a free slot of an UP host. P, E, the workload
// and the communication phase: docs/algorithms.md, "Paper 002's
// heuristics".
#ifndef GSRT_RUNTIME_SCHED_POLICIES_VOLATILE_H_
#define GSRT_RUNTIME_SCHED_POLICIES_VOLATILE_H_

#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "runtime/sched/scheduler.h"
#include "runtime/sched/volatile_model.h"

namespace gs {

enum class VolatileCriterion : uint8_t { kP, kE, kY, kAY };

class VolatilePolicy : public Policy {
 public:
  VolatilePolicy(std::string name, VolatileCriterion criterion)
      : name_(std::move(name)), criterion_(criterion) {}
  std::string_view name() const override { return name_; }
  VolatileCriterion criterion() const { return criterion_; }

  // Not owned. Without it every host is taken as always UP (P = 1) and a
  // configuration is whatever is ready and fits.
  void set_hosts(const VolatileHosts* hosts) { hosts_ = hosts; }
  const VolatileHosts* volatile_hosts() const { return hosts_; }

  Choice Choose(const ReadyTask& task, const SlotBoard& board,
                const Predictor& predictor) override;
  void Place(std::span<const ReadyTask> ready, const SchedulingInput& in,
             std::vector<Placement>* out) override;

  // P and E (seconds) of a configuration: x[h] tasks on host h.
  struct Measure {
    double p = 1;
    Seconds e = 0;
  };
  Measure Evaluate(const std::vector<uint32_t>& x, OpId op,
                   const Predictor& predictor) const;
  // The same with the work of each host given (seconds): hosts with x[h]
  // tasks take part, the longest work sets W. `inputs[h]` (seconds; empty:
  // none) is what moving the tasks' input files to h takes, on top of the
  // model's T_prog and T_data.
  Measure EvaluateLoad(const std::vector<uint32_t>& x,
                       const std::vector<Seconds>& load,
                       const std::vector<Seconds>& inputs = {}) const;
  // The criterion's value (higher is better) at `elapsed` seconds into the
  // iteration.
  double Score(const Measure& m, Seconds elapsed) const;

 protected:
  // A task of a configuration being built.
  struct Member {
    TaskId task;
    OpId op;
  };
  // The passive construction: each of `members`, in order, on hosts with
  // free[h] slots; fewer hosts than tasks when the slots run out.
  // `last` gets the measure of the whole configuration.
  std::vector<HostId> Build(const std::vector<Member>& members,
                            const std::vector<int>& free,
                            const Predictor& predictor, Seconds elapsed,
                            Measure* last) const;
  const VolatileHosts* hosts() const { return hosts_; }
  // The fixed configuration size m; 0: whatever is ready and fits.
  size_t configuration_size() const {
    return hosts_ ? hosts_->tasks_per_configuration() : 0;
  }
  // What each placed task runs and since when (for the work it has left).
  struct Launch {
    OpId op;
    Seconds at;
  };
  std::unordered_map<TaskId, Launch> launches_;
  Seconds iteration_start() const { return iteration_start_; }
  // When the running configuration was launched, and its E then.
  Seconds launched_ = 0;
  Seconds launched_e_ = 0;
  OpId running_op_ = 0;
  Need need_;  // what each task of the running configuration holds

 private:
  std::string name_;
  VolatileCriterion criterion_;
  const VolatileHosts* hosts_ = nullptr;
  std::unordered_set<TaskId> seen_;
  Seconds iteration_start_ = 0;
};

// Proactive heuristics C-H (paper 002, section V.B): H builds the
// configuration; every time slot the running configuration, measured by
// criterion C with the work it has left (estimated as the share of its
// launch-time E that has elapsed), is compared with one H builds from
// scratch over all UP hosts; if the new one is strictly better by C (P
// higher, E lower, or Y = P / (E + t) higher), the running jobs are
// stopped and placed again. AY is not a criterion (the paper drops it).
//
// Without a fixed m (live runs) the running jobs form the configuration,
// the work left of each is its predicted time minus the time it has run,
// and a task is stopped at most once: jobs of a DAG keep arriving, and
// without that bound two configurations could take turns forever.
class ProactivePolicy : public VolatilePolicy {
 public:
  ProactivePolicy(std::string name, VolatileCriterion passive,
                  VolatileCriterion criterion)
      : VolatilePolicy(std::move(name), passive), criterion_(criterion) {}
  Seconds reconsider_period() const override {
    return hosts() ? hosts()->slot() : 0;
  }
  std::vector<TaskId> Reconsider(const std::vector<Placement>& running,
                                 const SchedulingInput& in) override;
  uint64_t reconfigurations() const { return reconfigurations_; }

 private:
  // The measure of the running configuration with the work it has left.
  Measure Current(const std::vector<Placement>& running,
                  const std::vector<uint32_t>& x, const SchedulingInput& in);

  VolatileCriterion criterion_;
  uint64_t reconfigurations_ = 0;
  std::unordered_set<TaskId> stopped_;  // without a fixed m
};

// "ip", "ie", "iy", "iay", and "c-h" with c in p, e, y (e.g. "y-ie").
std::unique_ptr<Policy> MakeVolatilePolicy(std::string_view name);
// Gives `hosts` to `policy` if it is a volatile policy; returns whether.
bool AttachVolatileHosts(Policy& policy, const VolatileHosts* hosts);
// The model `policy` uses: nullptr if none or not a volatile policy.
const VolatileHosts* AttachedVolatileHosts(const Policy& policy);

}  // namespace gs

#endif  // GSRT_RUNTIME_SCHED_POLICIES_VOLATILE_H_
