// Lower bounds on the optimal makespan of R||Cmax (independent tasks on
// unrelated machines, one slot each; an ETC matrix), to tell how far a
// mapping can be from the optimum where no best known makespan is published.
//
//   SimpleLowerBound  max(the longest task on its fastest machine, the sum
//                     of every task's fastest time / machines);
//   LpLowerBound      the LP relaxation of R||Cmax strengthened as by
//                     Lenstra, Shmoys and Tardos (1990): the least T for
//                     which
//                       sum_m x_tm = 1           for every task t,
//                       sum_t p_tm x_tm <= T     for every machine m,
//                       x_tm >= 0, and x_tm = 0  wherever p_tm > T
//                     is feasible. No schedule of makespan T' < T exists:
//                     its 0/1 assignment would satisfy the system for T'.
//                     Solved with GLPK's simplex over the thresholds T can
//                     cross (the distinct p_tm), by bisection.
#ifndef GSRT_SIM_INSTANCES_MAKESPAN_LOWER_BOUND_H_
#define GSRT_SIM_INSTANCES_MAKESPAN_LOWER_BOUND_H_

#include "runtime/base/status.h"
#include "sim/instances/etc_matrix.h"

namespace gs {

Seconds SimpleLowerBound(const EtcMatrix& etc);

// Fails only if GLPK does (numerical trouble), with its return code.
StatusOr<Seconds> LpLowerBound(const EtcMatrix& etc);

}  // namespace gs

#endif  // GSRT_SIM_INSTANCES_MAKESPAN_LOWER_BOUND_H_
