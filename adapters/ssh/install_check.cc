#include "adapters/ssh/install_check.h"

#include <algorithm>

namespace gs {
namespace {

// $1 the directory, $2 what to exec when all passed ("" for nothing), $3
// the number of programs, then a path and a digest per program, then the
// arguments of $2. Each process started costs a few ms on a loaded host:
// the programs are checked at once, each in a subshell whose exit status
// is the verdict; mkdir and chmod run only when needed; the program to
// exec (number k) is run with --version only when it is not exec'd after
// all. Nothing but `exec` reads the channel's stdin, where the master's
// first bytes wait for the agent.
constexpr const char* kScript =
    "d=$1 x=$2 n=$3; shift 3; ok=1; "
    "{ [ -d \"$d\" ] && [ -w \"$d\" ]; } || "
    "{ mkdir -p -m 0700 -- \"$d\" && [ -d \"$d\" ] && [ -w \"$d\" ]; } "
    "2>/dev/null || ok=0; "
    "i=0; k=0; pids=; "
    "while [ \"$n\" -gt 0 ]; do "
    "i=$((i + 1)); [ \"$1\" = \"$x\" ] && k=$i; "
    "( [ $ok = 1 ] && [ -f \"$1\" ] && "
    "h=$(sha256sum < \"$1\" 2>/dev/null || "
    "shasum -a 256 < \"$1\" 2>/dev/null) && "
    "[ \"${h%% *}\" = \"$2\" ] && "
    "{ [ -x \"$1\" ] || chmod 0755 -- \"$1\" 2>/dev/null; } && "
    "{ [ $i = $k ] || \"$1\" --version >/dev/null 2>&1; } "
    ") </dev/null & "
    "pids=\"$pids $!\"; n=$((n - 1)); shift 2; "
    "done; "
    "all=1; v=; "
    "for p in $pids; do "
    "if wait \"$p\"; then v=\"$v same\"; else v=\"$v differ\"; all=0; fi; "
    "done; "
    "line=gsrt-check:; i=0; "
    "for w in $v; do "
    "i=$((i + 1)); "
    "if [ $all = 0 ] && [ $i = $k ] && [ $w = same ]; then "
    "\"$x\" --version >/dev/null 2>&1 </dev/null || w=differ; fi; "
    "line=\"$line $w\"; "
    "done; "
    "echo \"$line\"; "
    "if [ $all = 1 ] && [ -n \"$x\" ]; then exec \"$x\" \"$@\"; fi; exit 0";

constexpr std::string_view kSame = "same";
constexpr std::string_view kDiffer = "differ";

}  // namespace

std::vector<std::string> InstallCheckArgv(
    const std::string& dir, const std::vector<InstalledProgram>& programs,
    const std::vector<std::string>& then) {
  std::vector<std::string> argv = {"sh",
                                   "-c",
                                   kScript,
                                   "sh",
                                   dir,
                                   then.empty() ? "" : then[0],
                                   std::to_string(programs.size())};
  for (const InstalledProgram& p : programs) {
    argv.push_back(p.remote);
    argv.push_back(p.sha256);
  }
  if (!then.empty()) argv.insert(argv.end(), then.begin() + 1, then.end());
  return argv;
}

size_t InstallCheckLineLimit(size_t programs) {
  return kInstallCheckTag.size() + programs * (1 + kDiffer.size()) + 1;
}

std::optional<std::vector<bool>> ParseInstallCheckLine(std::string_view line,
                                                       size_t programs) {
  if (line.substr(0, kInstallCheckTag.size()) != kInstallCheckTag) {
    return std::nullopt;
  }
  line.remove_prefix(kInstallCheckTag.size());
  std::vector<bool> same;
  while (!line.empty()) {
    if (line[0] != ' ') return std::nullopt;
    line.remove_prefix(1);
    const std::string_view word = line.substr(0, line.find(' '));
    if (word != kSame && word != kDiffer) return std::nullopt;
    same.push_back(word == kSame);
    line.remove_prefix(word.size());
  }
  if (same.size() != programs) return std::nullopt;
  return same;
}

std::optional<std::vector<bool>> ConfirmedAfterFailedStart(
    const CheckedStartOutcome& outcome, size_t programs) {
  if (!outcome.same || outcome.same->size() != programs) {
    return std::vector<bool>(programs, false);  // nothing confirmed
  }
  std::vector<bool> same = *outcome.same;
  if (std::find(same.begin(), same.end(), false) != same.end()) return same;
  if (outcome.ended_silent && !same.empty()) {
    same[0] = false;
    return same;
  }
  return std::nullopt;
}

}  // namespace gs
