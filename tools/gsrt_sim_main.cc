// gsrt-sim: the papers' experiments on the real gsrt engine, in virtual
// time, against simulated hosts (adapters/simulated). The command line and the
// runs are sim/experiments/sim_cli.h; docs/experiments.md lists the tables
// and the commands behind them.
//
// Exit codes: 0 done; 1 some task did not finish; 2 bad command line or
// input file.
#include <iostream>

#include "runtime/base/command_line.h"
#include "sim/experiments/sim_cli.h"

int main(int argc, char** argv) {
  gs::SimCommand command;
  if (auto stop = gs::ParseSimArgs(gs::ArgsOf(argc, argv), &command, std::cout,
                                   std::cerr)) {
    return *stop;
  }
  return gs::RunSimCommand(command, std::cout, std::cerr);
}
