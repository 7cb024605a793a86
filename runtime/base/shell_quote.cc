#include "runtime/base/shell_quote.h"

namespace gs {
namespace {

bool IsPlain(char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
      (c >= '0' && c <= '9')) {
    return true;
  }
  switch (c) {
    case '_':
    case '@':
    case '%':
    case '+':
    case '=':
    case ':':
    case ',':
    case '.':
    case '/':
    case '-':
      return true;
    default:
      return false;
  }
}

}  // namespace

std::string ShellQuote(std::string_view word) {
  bool plain = !word.empty();
  for (char c : word) plain = plain && IsPlain(c);
  if (plain) return std::string(word);
  std::string out = "'";
  for (char c : word) {
    if (c == '\'') {
      out += "'\\''";  // close, an escaped quote, reopen
    } else {
      out += c;
    }
  }
  out += '\'';
  return out;
}

StatusOr<std::string> ShellCommandLine(const std::vector<std::string>& argv) {
  if (argv.empty()) {
    return Status::InvalidArgument("a remote command needs at least a program");
  }
  std::string line;
  for (size_t i = 0; i < argv.size(); ++i) {
    if (argv[i].find('\0') != std::string::npos) {
      return Status::InvalidArgument("argument " + std::to_string(i) +
                                     " of the remote command '" + argv[0] +
                                     "' holds a NUL byte, which no shell "
                                     "can pass on");
    }
    if (i > 0) line += ' ';
    line += ShellQuote(argv[i]);
  }
  return line;
}

}  // namespace gs
