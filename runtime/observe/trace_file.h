// A Chrome trace-event JSON file ({"traceEvents":[...]}) written as a run
// goes: events are buffered and appended, and every flush rewrites the
// closing "]}" after them, so the file on disk is valid JSON after each
// flush. A master killed between flushes leaves a valid trace of what was
// flushed; `gsrt trace` rebuilds the whole run from the history anyway.
#ifndef GSRT_RUNTIME_OBSERVE_TRACE_FILE_H_
#define GSRT_RUNTIME_OBSERVE_TRACE_FILE_H_

#include <memory>
#include <string>

#include "runtime/base/status.h"

namespace gs {

class TraceFile {
 public:
  // Creates (or truncates) `path` with mode 0600 and writes an empty
  // trace.
  static StatusOr<std::unique_ptr<TraceFile>> Create(const std::string& path);
  // Flushes; errors are lost here (call Flush to see them).
  ~TraceFile();
  TraceFile(const TraceFile&) = delete;
  TraceFile& operator=(const TraceFile&) = delete;

  // One event object, serialised. Buffered until the next Flush.
  void Append(const std::string& event_json);
  size_t buffered() const { return buffer_.size(); }
  // Writes the buffered events and the closing brackets after them.
  Status Flush();

  const std::string& path() const { return path_; }

 private:
  TraceFile(std::string path, int fd) : path_(std::move(path)), fd_(fd) {}

  std::string path_;
  int fd_ = -1;
  off_t end_ = 0;  // where the closing brackets start
  bool first_ = true;
  std::string buffer_;
};

}  // namespace gs

#endif  // GSRT_RUNTIME_OBSERVE_TRACE_FILE_H_
