// gsrt: past runs from the history (runs, show, tasks, trace, dot) and
// hosts to try gsrt on (testbed). Thin main over runtime/inspect/inspect_cli;
// docs/observing.md is the manual.
#include <iostream>

#include "runtime/base/command_line.h"
#include "runtime/config/config.h"
#include "runtime/inspect/inspect_cli.h"

int main(int argc, char** argv) {
  return gs::RunGsrtCommand(gs::ArgsOf(argc, argv),
                            gs::ConfigEnv::FromProcess(), std::cout, std::cerr);
}
