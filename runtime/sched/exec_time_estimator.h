// Predicts how long an operation runs on a host, for the scheduler (MCT in
// paper 003; ET in eq. 4 of paper 004). Pure logic, no I/O: fed by
// Observe() with the durations of successful jobs, and seeded at start from
// History::LoadExecTimes(). A prediction is the mean of op's last `window`
// runs on that host, else the mean of the other hosts' means (not scaled
// by any speed), else `unknown_default` (docs/history.md, "Execution-time
// estimates"). Names are interned into small dense ids (OpId, HostId); the
// id-based calls are O(1) with no hashing, for the scheduler's
// per-task-per-host loop. Not thread-safe (the engine thread owns it).
#ifndef GSRT_RUNTIME_SCHED_EXEC_TIME_ESTIMATOR_H_
#define GSRT_RUNTIME_SCHED_EXEC_TIME_ESTIMATOR_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "runtime/base/clock.h"
#include "runtime/history/history_records.h"

namespace gs {

using OpId = uint32_t;
using HostId = uint32_t;

struct ExecTimeOptions {
  // Observations kept per (operation, host); older ones are forgotten so
  // that predictions follow a host whose speed changes.
  int window = 20;
  // Prediction for an operation never observed on any host.
  Seconds unknown_default = 0;
};

class ExecTimeEstimator {
 public:
  // What a prediction was based on (rules 1-3 above).
  enum class Basis { kThisHost, kOtherHosts, kDefault };
  struct Prediction {
    Seconds seconds = 0;
    Basis basis = Basis::kDefault;
    int samples = 0;  // observations behind it (hosts, for kOtherHosts)
  };

  explicit ExecTimeEstimator(ExecTimeOptions options = {});

  // Returns the id of `name`, adding it if new. Ids are 0, 1, 2, ... in
  // order of first appearance and never change.
  OpId InternOp(std::string_view name);
  HostId InternHost(std::string_view name);
  std::optional<OpId> FindOp(std::string_view name) const;
  std::optional<HostId> FindHost(std::string_view name) const;
  const std::string& OpName(OpId op) const { return ops_.names[op]; }
  const std::string& HostName(HostId host) const { return hosts_.names[host]; }

  // Records a successful job's duration. Negative or non-finite durations
  // (clock skew, bad data) are ignored.
  void Observe(OpId op, HostId host, Seconds seconds);
  void Observe(std::string_view op, std::string_view host, Seconds seconds);
  // Feeds samples as History::LoadExecTimes returns them (newest first
  // within each (op, host)), so the newest end up in the window.
  void Seed(std::span<const ExecTimeSample> samples);

  // Fast path: ids from Intern*/Find*. Ids the estimator has no data for
  // (e.g. a host interned later) are valid and fall back as above.
  Seconds Predict(OpId op, HostId host) const {
    return Explain(op, host).seconds;
  }
  // Name path: does not intern; unknown names fall back as above.
  Seconds Predict(std::string_view op, std::string_view host) const;
  Prediction Explain(OpId op, HostId host) const;

  // Observations currently in the (op, host) window.
  int SampleCount(OpId op, HostId host) const;

 private:
  struct StringHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const {
      return std::hash<std::string_view>()(s);
    }
  };
  struct Names {
    std::vector<std::string> names;
    std::unordered_map<std::string, uint32_t, StringHash, std::equal_to<>> ids;
    uint32_t Intern(std::string_view name);
    std::optional<uint32_t> Find(std::string_view name) const;
  };
  // The last `window` durations of one (op, host), as a ring buffer.
  struct Window {
    std::vector<double> values;
    size_t next = 0;  // slot the next value overwrites once full
    double sum = 0;
    double mean() const { return sum / static_cast<double>(values.size()); }
  };
  struct OpStats {
    std::vector<Window> by_host;  // indexed by HostId, grown on demand
    // Sum of the means of the hosts with data, and how many they are: rule
    // 2 in O(1). Updated incrementally (add new mean, subtract old); the
    // rounding drift is ~1e-16 relative per update, negligible here.
    double sum_of_means = 0;
    int hosts_with_data = 0;
  };

  ExecTimeOptions options_;
  Names ops_;
  Names hosts_;
  std::vector<OpStats> stats_;  // indexed by OpId
};

}  // namespace gs

#endif  // GSRT_RUNTIME_SCHED_EXEC_TIME_ESTIMATOR_H_
