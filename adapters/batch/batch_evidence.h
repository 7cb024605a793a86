// The output of a batch job or pilot that ended unseen (cancelled outside
// gsrt, past its walltime, its node failed) is the only word on why. Its
// batch directory goes at the run's end, so the output is kept where the
// evidence of failed attempts lives: `workdir`/failed/batch/ (the local
// adapter clears sessions of failed/ older than runtime.keep_failed).
#ifndef GSRT_ADAPTERS_BATCH_BATCH_EVIDENCE_H_
#define GSRT_ADAPTERS_BATCH_BATCH_EVIDENCE_H_

#include <string>

namespace gs {

// Moves `output` to `workdir`/failed/batch/`name` and says where it is
// now, for a message: "its output: PATH", "it wrote no output", or why it
// could not be kept (then it stays where it was).
std::string KeepBatchOutput(const std::string& workdir,
                            const std::string& output, const std::string& name);

}  // namespace gs

#endif  // GSRT_ADAPTERS_BATCH_BATCH_EVIDENCE_H_
