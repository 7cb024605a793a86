// etc_table: regenerates the paper 003 comparison of docs/experiments.md
// (sim/experiments/etc_table.h); its default data directory is sim/data
// of the source tree this build was configured from.
//
//   etc_table [--data DIR]
#include <iostream>

#include "runtime/base/command_line.h"
#include "sim/experiments/etc_table.h"

int main(int argc, char** argv) {
  gs::EtcTableOptions options;
  options.data_dir = GSRT_SIM_DATA;
  if (auto stop = gs::ParseEtcTableArgs(gs::ArgsOf(argc, argv), &options,
                                        std::cout, std::cerr)) {
    return *stop;
  }
  return gs::RunEtcTable(options, std::cout, std::cerr);
}
