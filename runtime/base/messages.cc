#include "runtime/base/messages.h"

#include <cstdarg>
#include <cstdio>

namespace gs {
namespace {

class StderrSink : public MessageSink {
 public:
  void Say(MessageKind, std::string_view text) override {
    // One write per message, so lines of two threads never interleave.
    std::fwrite(text.data(), 1, text.size(), stderr);
    std::fflush(stderr);
  }
};

}  // namespace

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

MessageSink& StderrMessages() {
  static StderrSink* sink = new StderrSink;
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
