// Runs the program of a `@Binary` operation (gs_run_binary of gs/gs_abi.h)
// in the worker, in the job's directory: the arguments as the IDL's
// template says, each one argv word (no shell), the standard streams on the
// operation's files, the exit status checked against the success list.
// The program dies with the worker (PR_SET_PDEATHSIG), so a job's timeout
// or cancel ends it too.
#ifndef GSRT_RUNTIME_WORKER_RUN_BINARY_H_
#define GSRT_RUNTIME_WORKER_RUN_BINARY_H_

#include <string>
#include <string_view>
#include <utility>
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

// Where an @MPI program runs: in the allocation of the batch job gsrt
// submitted for it (--nodes, --ntasks-per-node: SLURM_NTASKS covers its
// ranks), or on one host (which may itself be a pilot's or an allocation
// node's Slurm job of one task).
struct MpiSite {
  bool in_slurm_job = false;  // SLURM_JOB_ID set
  int slurm_tasks = 0;        // SLURM_NTASKS
  // The gang gsrt placed it on (GSRT_MPI_NODES, "n1:2,n2:2": each node and
  // its ranks, this host's first); empty when the job is on one host or
  // its queue allocated the nodes.
  std::vector<std::pair<std::string, int>> gang;
  static MpiSite FromEnvironment();
};

// GSRT_MPI_NODES's text as MpiSite::gang; empty when it does not parse.
std::vector<std::pair<std::string, int>> ParseMpiNodes(std::string_view text);

// The argv that starts `program_argv` (BinaryArgv's) as the @MPI job of
// `binary`: the runner with its rank count and layout, then the program.
//   mpirun (Open MPI): -n N --bind-to none, then in its own allocation
//     --map-by ppr:P:node (it reads the allocation's nodes), else --host
//     localhost:N (the N cores gsrt holds there are its slots) and, in
//     another Slurm job, --mca ras ^slurm (not that job's one task);
//   srun: --ntasks=N --ntasks-per-node=P --kill-on-bad-exit=1 (a step of
//     the job's allocation);
//   anything else (mpiexec): -n N.
// On a gang gsrt placed (site.gang): srun --overlap over its nodes, or
// mpirun/mpiexec --host n1:P,n2:P (docs/sites.md, "Programs and MPI").
std::vector<std::string> MpiArgv(const gs_binary& binary,
                                 std::vector<std::string> program_argv,
                                 const MpiSite& site);

// Whether `text` (an MPI job's standard error) says that the runner lost
// a node or its daemon there: Open MPI's "lost communication with a remote
// daemon" or "daemon has unexpectedly failed", Slurm's "Node failure".
bool MpiLostANode(std::string_view text);

// The runner's line that says which rank failed and how, the last one in
// `text` (an MPI job's standard error): Open MPI's "mpirun noticed that
// process rank 1 ... exited on signal 6 (Aborted).", srun's "srun: error:
// n1: task 1: Aborted", MPICH's "BAD TERMINATION ... RANK 1"; "" if none.
// A failed MPI job's message puts it first: the ranks' backtraces bury it.
std::string MpiFailureReport(std::string_view text);

// Runs it and waits. Ok when it exited with a success status; else the
// program, how it ended and its last lines of standard error.
Status RunBinary(const gs_binary& binary, const gs_operation& op,
                 const gs_arg* args);

}  // namespace gs

#endif  // GSRT_RUNTIME_WORKER_RUN_BINARY_H_
