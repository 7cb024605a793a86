// Job numbers are unique per work directory across runs: they name the
// jobs' sandboxes (jobs/<n>), kept logs (logs/job-<n>.*), failure evidence
// and history rows, on the master and on every host. A run continues after
// the largest number an earlier run may have used, which the work dir's
// `last_job` file records before any job of a block gets it (so a master
// killed with SIGKILL leaves a bound its stragglers stay under); the
// history's largest job number covers a work dir whose file is gone. The
// functions are the decisions; JobNumbers does the I/O.
#ifndef GSRT_RUNTIME_ENGINE_JOB_NUMBERS_H_
#define GSRT_RUNTIME_ENGINE_JOB_NUMBERS_H_

#include <optional>
#include <string>
#include <string_view>

#include "runtime/base/file_system.h"
#include "runtime/base/messages.h"
#include "runtime/jobs/job.h"

namespace gs {

// Numbers reserved at a time: `last_job` is written once per block, not
// once per job.
inline constexpr JobId kJobNumberBlock = 1024;
// The largest job number: JSON readers (the live page's JavaScript, the
// trace viewer) hold numbers as doubles, exact up to 2^53.
inline constexpr JobId kMaxJobNumber = (JobId{1} << 53) - 1;

// What earlier runs in a work directory left of their job numbers.
struct EarlierJobNumbers {
  // The `last_job` file: the largest number reserved or used; nullopt when
  // it is missing or unreadable.
  std::optional<JobId> recorded;
  // The largest job number in the history (0: none, or no history).
  JobId in_history = 0;
};

// This run's first job number: one past the largest number any earlier run
// may have used; 1 in a fresh work dir.
JobId FirstJobNumber(const EarlierJobNumbers& earlier);

// The number `last_job` must hold before job `next` is given out, when
// numbers up to `reserved` are reserved already: `reserved` while it
// covers `next`, else the end of a new block starting at `next` (never past
// kMaxJobNumber).
JobId ReservationFor(JobId next, JobId reserved);

// `last_job`'s text: the number in decimal and a newline.
std::string FormatLastJob(JobId last);
// The number in `text` (FormatLastJob's form; surrounding blanks allowed);
// nullopt when it is anything else or above kMaxJobNumber.
std::optional<JobId> ParseLastJob(std::string_view text);

class History;

// This run's job numbers: reads and writes WORK_DIR/last_job. Choose
// reserves a first block before any job can be dispatched; Next reserves
// the next block when the current one runs out; RecordLastUsed, at a clean
// end, writes back the last number given out so the next run continues
// right after it. A master that dies leaves its block's end, above every
// number its stragglers may still write under.
// Not locked: the engine calls Choose at Start (before its thread), Next
// under its mutex, RecordLastUsed after its thread stopped.
class JobNumbers {
 public:
  // `fs` and `messages` are not owned and must outlive this.
  JobNumbers(FileSystem& fs, MessageSink& messages, std::string work_dir);

  // The largest job number in `history` (0: none, unreadable, or null).
  static JobId LargestIn(History* history);
  // Continues after `last_job` and after `in_history` (the history's
  // largest number, 0: none) and reserves the first block.
  void Choose(JobId in_history);
  // The next number; a small write once per block: a job never gets its
  // number before the number is on disk.
  JobId Next();
  // Records that no number past the last one given out was used.
  void RecordLastUsed() { Reserve(next_ - 1); }

  JobId next() const { return next_; }
  JobId reserved() const { return reserved_; }
  const std::string& path() const { return path_; }

 private:
  // Records in `last_job` that numbers up to `last` may be in use; warns
  // once when it cannot.
  void Reserve(JobId last);

  FileSystem& fs_;
  MessageSink& messages_;
  const std::string path_;  // WORK_DIR/last_job
  JobId next_ = 1;          // Choose sets the first
  JobId reserved_ = 0;      // numbers up to this are in `last_job`
  bool warned_ = false;
};

}  // namespace gs

#endif  // GSRT_RUNTIME_ENGINE_JOB_NUMBERS_H_
