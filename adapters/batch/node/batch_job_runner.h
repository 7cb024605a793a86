// Job mode's files: the master writes each gsrt job's spec into a batch
// directory (spec.<index>, one per array element), and the batch job runs
// `gsrt-agent --batch-job DIR`, which runs that spec through the local
// adapter (same sandbox, output renaming, timeout and log rules as every
// other host) and leaves record.<index> (written under a temporary name,
// then renamed) with the job's report. A record is how the master learns
// a job's fate even after the queue forgot the job; a job that left the
// queue without one is an infrastructure failure.
//
// Both files are frames of the agent protocol (RUN_JOB and JOB_FINISHED).
#ifndef GSRT_ADAPTERS_BATCH_NODE_BATCH_JOB_RUNNER_H_
#define GSRT_ADAPTERS_BATCH_NODE_BATCH_JOB_RUNNER_H_

#include <string>
#include <string_view>

#include "runtime/base/file_io.h"  // spec and record files: WriteFileAtomically
#include "runtime/base/messages.h"
#include "runtime/base/status.h"
#include "runtime/jobs/job.h"

namespace gs {

std::string BatchSpecPath(const std::string& dir, int index);
std::string BatchRecordPath(const std::string& dir, int index);

std::string EncodeBatchSpec(const JobSpec& spec);
StatusOr<JobSpec> DecodeBatchSpec(std::string_view bytes);
std::string EncodeBatchRecord(const JobReport& report);
StatusOr<JobReport> DecodeBatchRecord(std::string_view bytes);

// Reads a whole small file; NotFound when it is not there.
StatusOr<std::string> ReadSmallFile(const std::string& path);

// The array index of the running batch job: $SLURM_ARRAY_TASK_ID,
// $PBS_ARRAYID or $PBS_ARRAY_INDEX; 0 for a job that is not an array.
int BatchArrayIndex();

// gsrt-agent --batch-job DIR: claims the element (batch_claim.h), runs
// DIR/spec.<index> in `work_dir` and writes DIR/record.<index>. Exit code
// 0 when a record was written (whatever the job's outcome) or the element
// was voided (nothing run), 1 otherwise. SIGTERM (scancel, qdel, the
// time limit) kills the job and writes no record. What it says goes to
// `messages` (the agent's stderr, which the queue keeps as the job's
// output: StderrMessages()). `launcher`: the host's, put before the worker.
int RunBatchJob(const std::string& dir, const std::string& work_dir,
                const std::vector<std::string>& launcher);
int RunBatchJob(const std::string& dir, const std::string& work_dir,
                MessageSink& messages,
                const std::vector<std::string>& launcher = {});

}  // namespace gs

#endif  // GSRT_ADAPTERS_BATCH_NODE_BATCH_JOB_RUNNER_H_
