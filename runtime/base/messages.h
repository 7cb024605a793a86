// One way for what gsrt tells a person: every message of the runtime and
// the adapters goes through a MessageSink handed to it, never straight to
// stderr. A program's main picks the sink (StderrMessages(), or a quiet one
// that keeps only warnings and errors); tests record what a user would be
// told (RecordingMessages) and assert on it. The progress line is a
// sink's too: on a terminal the stderr sink erases it before any message.
#ifndef GSRT_RUNTIME_BASE_MESSAGES_H_
#define GSRT_RUNTIME_BASE_MESSAGES_H_

#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/base/mutex.h"
#include "runtime/base/progress_line.h"
#include "runtime/base/thread_annotations.h"

namespace gs {

enum class MessageKind : uint8_t {
  kInfo,       // what the run is doing
  kWarning,    // worth a look; the run goes on
  kError,      // an operation or the run failed
  kHostEvent,  // a host lost, back, suspect, swept
  kSummary,    // the run's closing summary
};

std::string_view MessageKindName(MessageKind kind);

// Thread-safe: any thread may call Say and Progress at any time.
class MessageSink {
 public:
  virtual ~MessageSink() = default;
  // `text` is what the user reads, whole lines ending in '\n'.
  virtual void Say(MessageKind kind, std::string_view text) = 0;
  // The progress line becomes `text` (one line, no '\n'); "" erases it.
  // Sinks that show it draw it as ProgressLine does.
  virtual void Progress(std::string_view text) = 0;
};

// printf-style Say.
void Sayf(MessageSink& sink, MessageKind kind, const char* format, ...)
    __attribute__((format(printf, 3, 4)));

// Messages and the progress line on a stdio stream. On a terminal a
// message first erases a progress line drawn there, so the two never mix;
// elsewhere each new progress text is a plain line of its own.
class FileMessages : public MessageSink {
 public:
  // `terminal`: whether `out` is one (isatty). `out` is not owned.
  FileMessages(std::FILE* out, bool terminal)
      : out_(out), line_(out, terminal) {}
  void Say(MessageKind kind, std::string_view text) override;
  void Progress(std::string_view text) override;

 private:
  Mutex mu_;
  std::FILE* const out_;
  ProgressLine line_ GUARDED_BY(mu_);
};

// This process's stderr (a FileMessages, a terminal as isatty says),
// shared by all its users; never destroyed.
MessageSink& StderrMessages();

// Keeps warnings and errors (sent on to `next`), drops the rest: a caller
// that reports the run itself (the simulator) or asked for quiet.
class QuietMessages : public MessageSink {
 public:
  explicit QuietMessages(MessageSink& next) : next_(next) {}
  void Say(MessageKind kind, std::string_view text) override;
  // Dropped: a progress line is no warning.
  void Progress(std::string_view) override {}

 private:
  MessageSink& next_;
};

// Keeps every message and the last progress text, for tests.
class RecordingMessages : public MessageSink {
 public:
  struct Message {
    MessageKind kind;
    std::string text;
  };
  void Say(MessageKind kind, std::string_view text) override;
  void Progress(std::string_view text) override;
  std::vector<Message> messages() const;
  // The progress line now: the last text given ("" when erased or never
  // drawn).
  std::string progress() const;
  // Whether some message of `kind` contains `part`.
  bool Has(MessageKind kind, std::string_view part) const;
  // All texts, in order, one after the other (for a failing test's output).
  std::string AllText() const;

 private:
  mutable std::mutex mu_;
  std::vector<Message> messages_;  // guarded by mu_
  std::string progress_;           // guarded by mu_
};

}  // namespace gs

#endif  // GSRT_RUNTIME_BASE_MESSAGES_H_
