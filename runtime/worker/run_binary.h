// Runs the program of a `@Binary` operation (gs_run_binary of gs/gs_abi.h)
// in the worker, in the job's directory: the arguments as the IDL's
// template says, each one argv word (no shell), the standard streams on the
// operation's files, the exit status checked against the success list.
// The program dies with the worker (PR_SET_PDEATHSIG), so a job's timeout
// or cancel ends it too.
#ifndef GSRT_RUNTIME_WORKER_RUN_BINARY_H_
#define GSRT_RUNTIME_WORKER_RUN_BINARY_H_

#include <string>
#include <vector>

#include "gs/gs_abi.h"
#include "runtime/base/status.h"

namespace gs {

// A parameter's value as one argument word: a path or string as is, a
// number in its shortest exact spelling, a boolean as true/false, a char
// as itself.
std::string BinaryArgText(const gs_param_desc& param, const gs_arg& arg);

// The program's argv (program first) for a call: the template's words with
// each `{name}` replaced by that parameter's value.
std::vector<std::string> BinaryArgv(const gs_binary& binary,
                                    const gs_operation& op, const gs_arg* args);

// Runs it and waits. Ok when it exited with a success status; else the
// program, how it ended and its last lines of standard error.
Status RunBinary(const gs_binary& binary, const gs_operation& op,
                 const gs_arg* args);

}  // namespace gs

#endif  // GSRT_RUNTIME_WORKER_RUN_BINARY_H_
