// Known execution times, for runs where they are given rather than learnt:
// a simulation (the ETC matrix, the DAG's drawn times) tells the engine's
// predictor the true times, as the papers' schedulers assume.
#ifndef GSRT_RUNTIME_SCHED_EXEC_ORACLE_H_
#define GSRT_RUNTIME_SCHED_EXEC_ORACLE_H_

#include <cstdint>
#include <span>
#include <string_view>

#include "runtime/base/clock.h"

namespace gs {

class ExecOracle {
 public:
  virtual ~ExecOracle() = default;
  // A number for the operation called `name`, or -1 when the oracle does
  // not know it (then the learnt estimate is used).
  virtual int64_t OpIndex(std::string_view name) const = 0;
  // Execution time of operation `op` (an OpIndex) on host `host` (the
  // engine's host order).
  virtual Seconds Time(int64_t op, uint32_t host) const = 0;
  // When Time(op, h) is exactly Work(op) / speeds()[h] (hosts of given
  // speeds): Predictor::speeds and Work, which let policies skip hosts.
  // Empty / negative: not of that form.
  virtual std::span<const double> speeds() const { return {}; }
  virtual Seconds Work(int64_t op) const { return -1; }
};

}  // namespace gs

#endif  // GSRT_RUNTIME_SCHED_EXEC_ORACLE_H_
