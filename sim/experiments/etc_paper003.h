// The experiment setup and published figures of paper 003 (Panda, Khilar,
// Mohapatra, "FTMXT: Fault-Tolerant Immediate Mode Heuristics in
// Computational Grid"), section 5, for the 512 x 16 Braun instances we
// hold. Kept in one place so the reproduction test and tools/etc_table
// compare against the same numbers.
#ifndef GSRT_SIM_EXPERIMENTS_ETC_PAPER003_H_
#define GSRT_SIM_EXPERIMENTS_ETC_PAPER003_H_

#include <string_view>
#include <vector>

#include "sim/runner/etc_mapping.h"

namespace gs {

// "In 512x16 instances ... machines M10, M3, M4, M15, M1, M8, M16 and M6 ...
// failed after the execution of the task ID T165, T176, T182, T188, T234,
// T314, T338 and T370." The paper numbers from 1. Converted: machine Mj is
// 0-based j-1, and Tk (file index k-1) is the first task that finds it
// down. That is the reading the paper's own count confirms: MET on u_c_hihi
// maps every task to M1 and "executes 512 - 279 = 233" of them, i.e. T1 to
// T233; its makespan 2.2159E+07 is the time of exactly those tasks on M1.
std::vector<MachineFailure> Paper003Failures512x16();

// Table 2 (makespan) and table 3 (utilisation) of the paper, 512 x 16
// column, printed there with 5 significant digits. All four heuristics run
// with the failures above: MET and MCT lose the tasks they map to failed
// machines, FTMET and FTMCT avoid those machines.
struct Paper003Row {
  std::string_view instance;
  double met, ftmet, mct, ftmct;          // table 2
  double met_u, ftmet_u, mct_u, ftmct_u;  // table 3
};
const std::vector<Paper003Row>& Paper003Table512x16();

}  // namespace gs

#endif  // GSRT_SIM_EXPERIMENTS_ETC_PAPER003_H_
