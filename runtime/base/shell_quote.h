// Quoting for POSIX shells. sshd runs every exec request through the remote
// user's login shell, so each argument must reach the command exactly as
// given, whatever spaces, quotes, `;`, `$`, backticks or newlines it holds.
#ifndef GSRT_RUNTIME_BASE_SHELL_QUOTE_H_
#define GSRT_RUNTIME_BASE_SHELL_QUOTE_H_

#include <string>
#include <string_view>
#include <vector>

#include "runtime/base/status.h"

namespace gs {

// One word for a POSIX shell: returned as is when it holds only characters
// no shell treats specially (letters, digits and `_@%+=:,./-`), otherwise
// in single quotes with each ' written as '\''. "" becomes ''.
std::string ShellQuote(std::string_view word);

// The words of `argv`, each quoted, joined by spaces. InvalidArgument for
// an empty argv or a word holding a NUL byte (no shell can pass one on).
StatusOr<std::string> ShellCommandLine(const std::vector<std::string>& argv);

}  // namespace gs

#endif  // GSRT_RUNTIME_BASE_SHELL_QUOTE_H_
