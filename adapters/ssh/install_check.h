// The check that a host's programs are installed, as one remote command
// that may go on to start one of them. Pure logic: the command, the line
// it prints and what to do after it, unit-tested with a local shell; the
// ssh adapter runs it (checked_start_stream.h).
//
// Every exec channel costs sshd a session and a login shell (~0.1 s), so a
// reconnect to a host installed before uses one: the check, then `exec` of
// the agent on the same channel, whose stdin and stdout become the agent
// protocol's stream. GS_On runs the check alone in the adapter's Prepare,
// beside other hosts' (docs/ssh.md, "The start"). Only what the check does
// not confirm goes through InstallIfDifferent, which says what is wrong.
#ifndef GSRT_ADAPTERS_SSH_INSTALL_CHECK_H_
#define GSRT_ADAPTERS_SSH_INSTALL_CHECK_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gs {

// A program the master installs on a host: its remote path and the
// SHA-256 (hex) of the master's copy.
struct InstalledProgram {
  std::string remote;
  std::string sha256;
};

// argv (for ShellCommandLine) of `sh -c SCRIPT` that creates `dir` as
// EnsureRemoteDir does, and for each program checks that the remote copy
// has the given SHA-256 and is executable (made mode 0755 if it is not) and
// that it starts (`--version`). It prints one line (InstallCheckLine) and,
// when every program passed and `then` is not empty, execs `then` in its
// place (stdin, stdout and stderr unchanged); otherwise it exits 0.
// `then[0]`, when it is one of the programs, is run with --version only
// when something else fails: otherwise starting it is its check. The script is
// fixed text; paths, digests and arguments are its positional parameters, never
// spliced into shell code.
std::vector<std::string> InstallCheckArgv(
    const std::string& dir, const std::vector<InstalledProgram>& programs,
    const std::vector<std::string>& then = {});

// The line's first word; the line is "gsrt-check:" and one word per
// program, "same" or "differ", then "\n".
inline constexpr std::string_view kInstallCheckTag = "gsrt-check:";
// Longest line the check prints for this many programs, newline included.
size_t InstallCheckLineLimit(size_t programs);

// Per program whether the check confirmed it, from the line without its
// newline; nullopt when `line` is not the check's line for that many
// programs (a login banner or an rc file printed first, a shell that did
// not run the script).
std::optional<std::vector<bool>> ParseInstallCheckLine(std::string_view line,
                                                       size_t programs);

// What a check that went on to start `then` (the agent) showed before the
// agent greeted, or failed to.
struct CheckedStartOutcome {
  // The check's line, once it came and parsed.
  std::optional<std::vector<bool>> same;
  // The agent sent bytes (after the check's line).
  bool agent_spoke = false;
  // The command ended before the agent sent anything: it did not start,
  // or died before greeting.
  bool ended_silent = false;
};

// After a checked start that did not connect: which programs still count
// as installed, the rest going through InstallIfDifferent before the agent
// is started alone; nullopt when installing cannot help (the agent ran and
// refused, or hangs), so the start's own error stands. Program 0 is the
// agent: when it ended without a word although the check passed, it is
// checked again, so InstallIfDifferent says why it does not start.
std::optional<std::vector<bool>> ConfirmedAfterFailedStart(
    const CheckedStartOutcome& outcome, size_t programs);

}  // namespace gs

#endif  // GSRT_ADAPTERS_SSH_INSTALL_CHECK_H_
