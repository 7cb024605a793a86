// How a pilot proves it belongs to this run: before any agent-protocol
// byte, it sends one greeting line carrying the run's secret token and its
// own name. The token is made per run from the kernel's random source and
// reaches the pilot only in a file of mode 0600 (or its environment), never
// on a command line, so `ps` and `squeue` do not show it. Pure logic.
#ifndef GSRT_ADAPTERS_BATCH_PILOT_AUTH_H_
#define GSRT_ADAPTERS_BATCH_PILOT_AUTH_H_

#include <string>
#include <string_view>

#include "runtime/base/status.h"

namespace gs {

// The greeting's first word; the version is part of it.
inline constexpr std::string_view kPilotGreeting = "GSRT-PILOT/1";
// Longest greeting accepted, newline included.
inline constexpr size_t kMaxGreetingBytes = 512;

// 32 random bytes as 64 hex digits.
StatusOr<std::string> NewPilotToken();

// "GSRT-PILOT/1 <token> <pilot>\n".
std::string PilotGreeting(std::string_view token, std::string_view pilot);

// The pilot's name when `line` (without its newline) is a greeting with
// `token`; PermissionDenied otherwise (the message never shows a token).
// Compares in constant time.
StatusOr<std::string> CheckPilotGreeting(std::string_view line,
                                         std::string_view token);

// Reads the token from `path`: refuses a file that others may read or
// write (group/other bits), and strips one trailing newline.
StatusOr<std::string> ReadTokenFile(const std::string& path);

// Writes `token` to `path` with mode 0600 (replacing any older file).
Status WriteTokenFile(const std::string& path, std::string_view token);

}  // namespace gs

#endif  // GSRT_ADAPTERS_BATCH_PILOT_AUTH_H_
