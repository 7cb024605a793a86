// Lower bounds on the optimal makespan of R||Cmax (independent tasks on
// unrelated machines, one slot each; an ETC matrix), to tell how far a
// mapping can be from the optimum where no best known makespan is published.
//   SimpleLowerBound  max(the longest task on its fastest machine, the sum
//                     of every task's fastest time / machines);
//   LpLowerBound      the least T for which the LP relaxation of R||Cmax,
//                     strengthened as by Lenstra, Shmoys and Tardos (1990),
//                     is feasible; solved with GLPK's simplex, by bisection
//                     over the distinct p_tm (the system and why no
//                     schedule beats it: docs/algorithms.md, "A lower bound
//                     on the makespan").
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
