#include "adapters/ssh/checked_start_stream.h"

#include <algorithm>
#include <cctype>

namespace gs {
namespace {

// What came instead of the check's line, readable in a message.
std::string Printable(std::string_view text) {
  constexpr size_t kMax = 80;
  std::string out;
  for (char c : text.substr(0, kMax)) {
    out += std::isprint(static_cast<unsigned char>(c)) ? c : '?';
  }
  if (text.size() > kMax) out += "...";
  return out;
}

}  // namespace

CheckedStartStream::CheckedStartStream(
    std::unique_ptr<ByteStream> inner, size_t programs,
    std::shared_ptr<CheckedStartOutcome> outcome, std::string where)
    : inner_(std::move(inner)),
      programs_(programs),
      outcome_(std::move(outcome)),
      where_(std::move(where)) {}

CheckedStartStream::~CheckedStartStream() { *alive_ = false; }

void CheckedStartStream::Start(DataCallback on_data, ClosedCallback on_closed) {
  on_data_ = std::move(on_data);
  on_closed_ = std::move(on_closed);
  std::shared_ptr<bool> alive = alive_;
  inner_->Start(
      [this, alive](std::string_view bytes) {
        if (*alive) OnData(bytes);
      },
      [this, alive](Status why) {
        if (*alive) OnClosed(std::move(why));
      });
}

void CheckedStartStream::Write(std::string_view bytes) {
  if (!closed_) inner_->Write(bytes);
}

size_t CheckedStartStream::pending_bytes() const {
  return closed_ ? 0 : inner_->pending_bytes();
}

void CheckedStartStream::Close() {
  if (closed_) return;
  closed_ = true;
  inner_->Close();
}

void CheckedStartStream::OnData(std::string_view bytes) {
  if (closed_) return;
  if (passed_) {
    outcome_->agent_spoke = true;
    on_data_(bytes);
    return;
  }
  const size_t eol = bytes.find('\n');
  line_.append(bytes.substr(0, eol));
  // The limit counts the newline: a line that reaches it is not the check's.
  if (line_.size() >= InstallCheckLineLimit(programs_)) {
    return Refuse(Status::FailedPrecondition(
        where_ + ": the install check printed `" + Printable(line_) +
        "` rather than its result"));
  }
  if (eol == std::string_view::npos) return;
  outcome_->same = ParseInstallCheckLine(line_, programs_);
  if (!outcome_->same) {
    return Refuse(Status::FailedPrecondition(
        where_ + ": the install check printed `" + Printable(line_) +
        "` rather than its result"));
  }
  const std::vector<bool>& same = *outcome_->same;
  if (std::find(same.begin(), same.end(), false) != same.end()) {
    return Refuse(Status::FailedPrecondition(
        where_ + ": the programs are not all installed (" + line_ + ")"));
  }
  passed_ = true;
  bytes.remove_prefix(eol + 1);
  if (bytes.empty()) return;
  outcome_->agent_spoke = true;
  on_data_(bytes);
}

void CheckedStartStream::OnClosed(Status why) {
  if (closed_) return;
  closed_ = true;
  if (!outcome_->agent_spoke) outcome_->ended_silent = true;
  ClosedCallback cb = std::move(on_closed_);
  if (cb) cb(std::move(why));  // last: it may delete this stream
}

void CheckedStartStream::Refuse(Status why) {
  closed_ = true;
  inner_->Close();  // the check exits by itself; nothing more is wanted
  ClosedCallback cb = std::move(on_closed_);
  if (cb) cb(std::move(why));  // last: it may delete this stream
}

}  // namespace gs
