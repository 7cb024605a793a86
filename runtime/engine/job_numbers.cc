#include "runtime/engine/job_numbers.h"

#include <algorithm>
#include <charconv>
#include <utility>

#include "runtime/history/history.h"

namespace gs {

JobId FirstJobNumber(const EarlierJobNumbers& earlier) {
  JobId last = std::max(earlier.recorded.value_or(0), earlier.in_history);
  // A corrupt history cannot push numbers past what JSON readers hold
  // exactly; wrapping to reuse small numbers would be worse than this cap.
  return std::min(last, kMaxJobNumber - 1) + 1;
}

JobId ReservationFor(JobId next, JobId reserved) {
  if (next <= reserved) return reserved;
  if (next > kMaxJobNumber - kJobNumberBlock) return kMaxJobNumber;
  return next + kJobNumberBlock - 1;
}

std::string FormatLastJob(JobId last) { return std::to_string(last) + "\n"; }

std::optional<JobId> ParseLastJob(std::string_view text) {
  auto blank = [](char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
  };
  while (!text.empty() && blank(text.front())) text.remove_prefix(1);
  while (!text.empty() && blank(text.back())) text.remove_suffix(1);
  if (text.empty()) return std::nullopt;
  JobId value = 0;
  auto [end, ec] =
      std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) {
    return std::nullopt;
  }
  if (value > kMaxJobNumber) return std::nullopt;
  return value;
}

JobNumbers::JobNumbers(FileSystem& fs, MessageSink& messages,
                       std::string work_dir)
    : fs_(fs), messages_(messages), path_(std::move(work_dir) + "/last_job") {}

JobId JobNumbers::LargestIn(History* history) {
  if (history == nullptr) return 0;
  auto largest = history->LargestJobId();
  if (!largest.ok() || *largest <= 0) return 0;
  return static_cast<JobId>(*largest);
}

void JobNumbers::Choose(JobId in_history) {
  EarlierJobNumbers earlier;
  earlier.in_history = in_history;
  std::string text;
  Status read =
      fs_.Read(path_, [&text](std::string_view chunk) { text += chunk; });
  if (read.ok()) {
    earlier.recorded = ParseLastJob(text);
    if (!earlier.recorded) {
      Sayf(messages_, MessageKind::kWarning,
           "gsrt: warning: %s does not hold a job number; numbering "
           "continues after the history's jobs (remove the file to "
           "silence this)\n",
           path_.c_str());
    }
  }
  next_ = FirstJobNumber(earlier);
  reserved_ = next_ - 1;
  Reserve(ReservationFor(next_, reserved_));
}

JobId JobNumbers::Next() {
  if (next_ > reserved_) Reserve(ReservationFor(next_, reserved_));
  return next_++;
}

void JobNumbers::Reserve(JobId last) {
  reserved_ = last;
  // Written whole, then renamed: a master killed meanwhile leaves the old
  // number or the new one, never a torn file.
  const std::string temp = path_ + ".new";
  Status s = fs_.WriteFile(temp, FormatLastJob(last));
  if (s.ok()) s = fs_.Rename(temp, path_);
  if (s.ok() || warned_) return;
  warned_ = true;
  Sayf(messages_, MessageKind::kWarning,
       "gsrt: warning: cannot record job numbers in %s (%s); a later "
       "run in this work dir may reuse this run's job directories "
       "and logs\n",
       path_.c_str(), s.message().c_str());
}

}  // namespace gs
