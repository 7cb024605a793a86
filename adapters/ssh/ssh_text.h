// How the ssh layer writes commands and times into its error messages.
#ifndef GSRT_ADAPTERS_SSH_SSH_TEXT_H_
#define GSRT_ADAPTERS_SSH_SSH_TEXT_H_

#include <sstream>
#include <string>

#include "runtime/base/clock.h"

namespace gs {

// A command line cut to a readable length for a message.
inline std::string ShortCommand(const std::string& command) {
  constexpr size_t kMax = 120;
  if (command.size() <= kMax) return command;
  return command.substr(0, kMax) + "...";
}

// "30 s", "0.5 s": a configured bound as the user wrote it.
inline std::string SecondsText(Seconds s) {
  std::ostringstream out;
  out << s << " s";
  return out.str();
}

}  // namespace gs

#endif  // GSRT_ADAPTERS_SSH_SSH_TEXT_H_
