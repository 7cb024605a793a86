// How a pilot proves it belongs to this run: before any agent-protocol
// byte, it sends one greeting line carrying the run's secret token and its
// own name. The token is made per run from the kernel's random source and
// reaches the pilot only in a file of mode 0600 (or its environment), never
// on a command line, so `ps` and `squeue` do not show it. Pure logic.
#ifndef GSRT_ADAPTERS_BATCH_NODE_PILOT_AUTH_H_
#define GSRT_ADAPTERS_BATCH_NODE_PILOT_AUTH_H_

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

// The token file: the token on its first line, then optionally
// "connect HOST:PORT", the address of the master now. A master started
// after a crash rewrites its predecessor's file, so that the pilots it
// left find their new master there (docs/slurm.md, "Pilots").
struct PilotRendezvous {
  std::string token;
  std::string connect;  // "" when the file names no address
};

// Reads `path`: refuses a file that others may read or write
// (group/other bits) and one whose first line is not one token.
StatusOr<PilotRendezvous> ReadPilotRendezvous(const std::string& path);
// Its token alone.
StatusOr<std::string> ReadTokenFile(const std::string& path);

// Writes `path` with mode 0600, replacing any older file in one rename (a
// pilot reading it sees the old file or the new one).
Status WritePilotRendezvous(const std::string& path, const PilotRendezvous& r);
Status WriteTokenFile(const std::string& path, std::string_view token);

// A pilot greets as "NAME@BATCHID" when it knows its batch job's id (a
// master that did not submit it finds it by that id), else as "NAME".
struct PilotName {
  std::string pilot;
  std::string batch_id;  // "" when not given
};
PilotName SplitPilotName(std::string_view name);

}  // namespace gs

#endif  // GSRT_ADAPTERS_BATCH_NODE_PILOT_AUTH_H_
