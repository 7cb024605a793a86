// The trace as a run observer: GSRT_TRACE=FILE (or runtime.trace) makes the
// master write its run as a Chrome trace-event JSON file while it goes
// (runtime/observe/trace_builder.h says what is in it). Events are
// buffered and flushed at most every half second (or every 64 KiB), so the
// file is valid JSON at all times but the last half second; it is closed
// when the run ends. A write that fails is a warning said to the message
// sink given (once while the run goes, again at its end), never a failed
// run.
#ifndef GSRT_RUNTIME_OBSERVE_TRACE_OBSERVER_H_
#define GSRT_RUNTIME_OBSERVE_TRACE_OBSERVER_H_

#include <chrono>
#include <memory>
#include <mutex>
#include <string>

#include "runtime/base/messages.h"
#include "runtime/base/status.h"
#include "runtime/observe/run_observer.h"
#include "runtime/observe/trace_builder.h"
#include "runtime/observe/trace_file.h"

namespace gs {

class TraceObserver : public RunObserver {
 public:
  // `messages`: where warnings go; null: StderrMessages(). Not owned; must
  // outlive the observer.
  static StatusOr<std::shared_ptr<TraceObserver>> Create(
      const std::string& path, MessageSink* messages = nullptr);

  void OnRunStarted(Seconds started,
                    const std::vector<std::string>& hosts) override;
  void OnTaskSubmitted(const TaskRecord& task) override;
  void OnJobEnded(const JobRecord& job) override;
  void OnEvent(const RunEvent& event) override;
  // A task done by reusing an earlier run's results (docs/reuse.md) is an
  // instant "reused" on the master's lane.
  void OnTaskEnded(const TaskEnd& end) override;
  void OnRunEnded(Seconds ended, RunStatus status) override;

  // Writes what is buffered (the file is valid JSON after it).
  Status Flush();
  uint64_t jobs() const;
  uint64_t flows() const;

 private:
  TraceObserver(std::unique_ptr<TraceFile> file, MessageSink& messages);
  // Flushes when enough is buffered or enough time went by. Lock held.
  void MaybeFlushLocked();

  MessageSink& messages_;
  mutable std::mutex mu_;
  std::unique_ptr<TraceFile> file_;
  TraceBuilder builder_;
  std::chrono::steady_clock::time_point last_flush_;
  bool warned_ = false;
};

}  // namespace gs

#endif  // GSRT_RUNTIME_OBSERVE_TRACE_OBSERVER_H_
