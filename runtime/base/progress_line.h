// A progress line on a stream (stderr). On a terminal it is redrawn in
// place ("\r...\033[K") and erased again before anything else may be
// printed; on anything else (a file, a pipe, a CI log) there are no escape
// codes: each new text is one plain line, and an unchanged text is not
// repeated. The stderr message sink (runtime/base/messages.h) owns the
// process's one.
#ifndef GSRT_RUNTIME_BASE_PROGRESS_LINE_H_
#define GSRT_RUNTIME_BASE_PROGRESS_LINE_H_

#include <cstdio>
#include <string>

namespace gs {

// Not thread-safe: its owner calls it under its own lock.
class ProgressLine {
 public:
  // `terminal`: whether `out` is one (isatty).
  ProgressLine(std::FILE* out, bool terminal)
      : out_(out), terminal_(terminal) {}
  // stderr, a terminal or not as isatty says.
  static ProgressLine ForStderr();

  void Show(const std::string& text);
  // Erases a line drawn on a terminal; nothing otherwise.
  void Clear();
  bool shown() const { return shown_; }

 private:
  std::FILE* out_;
  bool terminal_;
  bool shown_ = false;  // a line is on the terminal now
  std::string last_;    // last text written (not a terminal)
};

}  // namespace gs

#endif  // GSRT_RUNTIME_BASE_PROGRESS_LINE_H_
