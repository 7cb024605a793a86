#include "runtime/base/messages.h"

#include <unistd.h>

#include <cstdarg>
#include <cstdio>

namespace gs {

std::string_view MessageKindName(MessageKind kind) {
  switch (kind) {
    case MessageKind::kInfo:
      return "info";
    case MessageKind::kWarning:
      return "warning";
    case MessageKind::kError:
      return "error";
    case MessageKind::kHostEvent:
      return "host";
    case MessageKind::kSummary:
      return "summary";
  }
  return "?";
}

void Sayf(MessageSink& sink, MessageKind kind, const char* format, ...) {
  va_list args;
  va_start(args, format);
  va_list copy;
  va_copy(copy, args);
  int n = std::vsnprintf(nullptr, 0, format, copy);
  va_end(copy);
  std::string text(n > 0 ? static_cast<size_t>(n) : 0, '\0');
  if (n > 0) std::vsnprintf(text.data(), text.size() + 1, format, args);
  va_end(args);
  sink.Say(kind, text);
}

void FileMessages::Say(MessageKind, std::string_view text) {
  // Under the lock, one write per message: lines of two threads never
  // interleave, and no message lands in the middle of a progress line.
  MutexLock lock(&mu_);
  line_.Clear();
  std::fwrite(text.data(), 1, text.size(), out_);
  std::fflush(out_);
}

void FileMessages::Progress(std::string_view text) {
  MutexLock lock(&mu_);
  if (text.empty()) {
    line_.Clear();
  } else {
    line_.Show(std::string(text));
  }
}

MessageSink& StderrMessages() {
  static FileMessages* sink =
      new FileMessages(stderr, ::isatty(STDERR_FILENO) == 1);
  return *sink;
}

void QuietMessages::Say(MessageKind kind, std::string_view text) {
  if (kind == MessageKind::kWarning || kind == MessageKind::kError) {
    next_.Say(kind, text);
  }
}

void RecordingMessages::Say(MessageKind kind, std::string_view text) {
  std::lock_guard<std::mutex> lock(mu_);
  messages_.push_back({kind, std::string(text)});
}

void RecordingMessages::Progress(std::string_view text) {
  std::lock_guard<std::mutex> lock(mu_);
  progress_ = text;
}

std::string RecordingMessages::progress() const {
  std::lock_guard<std::mutex> lock(mu_);
  return progress_;
}

std::vector<RecordingMessages::Message> RecordingMessages::messages() const {
  std::lock_guard<std::mutex> lock(mu_);
  return messages_;
}

bool RecordingMessages::Has(MessageKind kind, std::string_view part) const {
  std::lock_guard<std::mutex> lock(mu_);
  for (const Message& m : messages_) {
    if (m.kind == kind && m.text.find(part) != std::string::npos) return true;
  }
  return false;
}

std::string RecordingMessages::AllText() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::string all;
  for (const Message& m : messages_) all += m.text;
  return all;
}

}  // namespace gs
