#include "runtime/engine/job_numbers.h"

#include <algorithm>
#include <charconv>

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

}  // namespace gs
