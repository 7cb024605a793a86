#include "runtime/base/progress_line.h"

#include <unistd.h>

namespace gs {

ProgressLine ProgressLine::ForStderr() {
  return ProgressLine(stderr, ::isatty(STDERR_FILENO) == 1);
}

void ProgressLine::Show(const std::string& text) {
  if (terminal_) {
    std::fprintf(out_, "\r%s\033[K", text.c_str());
    shown_ = true;
  } else if (text != last_) {
    std::fprintf(out_, "%s\n", text.c_str());
    last_ = text;
  }
  std::fflush(out_);
}

void ProgressLine::Clear() {
  if (!shown_) return;
  std::fputs("\r\033[K", out_);
  std::fflush(out_);
  shown_ = false;
}

}  // namespace gs
