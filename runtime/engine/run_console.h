// What the user sees of a run on the terminal: the engine's messages,
// through the sink it was given (kept to warnings and errors when the
// caller reports the run itself), and the progress line drawn while the
// master waits. The sink is thread-safe; the progress line is not: it is
// drawn and erased with the engine's mutex held (or after the engine
// thread ended).
#ifndef GSRT_RUNTIME_ENGINE_RUN_CONSOLE_H_
#define GSRT_RUNTIME_ENGINE_RUN_CONSOLE_H_

#include "runtime/base/messages.h"
#include "runtime/engine/progress_line.h"

namespace gs {

class RunConsole {
 public:
  // `sink` null: StderrMessages(). Not owned; must outlive this object.
  RunConsole(MessageSink* sink, bool quiet)
      : sink_(sink ? sink : &StderrMessages()),
        quiet_(quiet),
        quiet_filter_(*sink_) {}
  RunConsole(const RunConsole&) = delete;
  RunConsole& operator=(const RunConsole&) = delete;

  // Where the engine says what it has to say (any thread).
  MessageSink& messages() { return quiet_ ? quiet_filter_ : *sink_; }
  // The sink itself, unfiltered: what the engine's adapters are given.
  MessageSink* sink() const { return sink_; }
  ProgressLine& progress() { return progress_; }

 private:
  MessageSink* const sink_;
  const bool quiet_;
  QuietMessages quiet_filter_;
  ProgressLine progress_ = ProgressLine::ForStderr();
};

}  // namespace gs

#endif  // GSRT_RUNTIME_ENGINE_RUN_CONSOLE_H_
