// Job numbers unique per work directory across runs (job_numbers.h decides;
// this reads and writes WORK_DIR/last_job and asks the history). Start
// reserves a first block before any job can be dispatched; a clean end
// writes back the last number used, so the next run continues right after
// it; a master that dies leaves its block's end, above every number its
// stragglers may still write under.
#include <cstdio>

#include "runtime/engine/engine.h"
#include "runtime/engine/job_numbers.h"
#include "runtime/history/history.h"

namespace gs {

std::string Engine::LastJobPath() const {
  return options_.work_dir + "/last_job";
}

void Engine::ChooseJobNumbers() {
  EarlierJobNumbers earlier;
  std::string text;
  Status read = fs_->Read(LastJobPath(),
                          [&text](std::string_view chunk) { text += chunk; });
  if (read.ok()) {
    earlier.recorded = ParseLastJob(text);
    if (!earlier.recorded) {
      std::fprintf(stderr,
                   "gsrt: warning: %s does not hold a job number; numbering "
                   "continues after the history's jobs (remove the file to "
                   "silence this)\n",
                   LastJobPath().c_str());
    }
  }
  if (History* history = recorder_.history()) {
    auto largest = history->LargestJobId();
    if (largest.ok() && *largest > 0) {
      earlier.in_history = static_cast<JobId>(*largest);
    }
  }
  next_job_ = FirstJobNumber(earlier);
  jobs_reserved_ = next_job_ - 1;
  ReserveJobNumbers(ReservationFor(next_job_, jobs_reserved_));
}

JobId Engine::NextJobNumberLocked() {
  // A small write under the engine lock, once per 1024 jobs: a job must not
  // get its number before the number is on disk.
  if (next_job_ > jobs_reserved_) {
    ReserveJobNumbers(ReservationFor(next_job_, jobs_reserved_));
  }
  return next_job_++;
}

void Engine::ReserveJobNumbers(JobId last) {
  jobs_reserved_ = last;
  // Written whole, then renamed: a master killed meanwhile leaves the old
  // number or the new one, never a torn file.
  const std::string temp = LastJobPath() + ".new";
  Status s = fs_->WriteFile(temp, FormatLastJob(last));
  if (s.ok()) s = fs_->Rename(temp, LastJobPath());
  if (s.ok() || last_job_warned_) return;
  last_job_warned_ = true;
  std::fprintf(stderr,
               "gsrt: warning: cannot record job numbers in %s (%s); a later "
               "run in this work dir may reuse this run's job directories "
               "and logs\n",
               LastJobPath().c_str(), s.message().c_str());
}

}  // namespace gs
