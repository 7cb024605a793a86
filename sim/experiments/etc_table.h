// etc_table: paper 003's comparison of docs/experiments.md ("Paper 003",
// tables 2 and 3 and the failure-free reference) regenerated from the Braun
// instances: MET, FTMET, MCT and FTMCT with the paper's failures, MET, MCT
// and Min-Min without, ours beside the paper's figures.
#ifndef GSRT_SIM_EXPERIMENTS_ETC_TABLE_H_
#define GSRT_SIM_EXPERIMENTS_ETC_TABLE_H_

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "runtime/base/status.h"

namespace gs {

struct EtcTableOptions {
  std::string data_dir;  // holds braun/
};

// `etc_table [--data DIR]`: parses `args` (without argv[0]) into `options`
// (whose data_dir is the default). Returns the exit code when the program
// must stop (help: 0; a mistake: 2), nullopt to go on.
std::optional<int> ParseEtcTableArgs(const std::vector<std::string>& args,
                                     EtcTableOptions* options,
                                     std::ostream& out, std::ostream& err);

// The three markdown tables for the 512 x 16 instances under
// `data_dir`/braun; an error names the instance.
StatusOr<std::string> Paper003Tables(const std::string& data_dir);

// Prints the tables to `out` (all or nothing) and returns 0, or prints
// why not to `err` and returns 1.
int RunEtcTable(const EtcTableOptions& options, std::ostream& out,
                std::ostream& err);

}  // namespace gs

#endif  // GSRT_SIM_EXPERIMENTS_ETC_TABLE_H_
