#include "adapters/host_environment.h"

#include <vector>

#include "runtime/base/shell_quote.h"

namespace gs {
namespace {

// Runs the script ($0 here) in a login shell, so that the site's profile
// (Lmod's `module` among others) is read: the user's own shell when it
// takes POSIX scripts, else /bin/sh.
constexpr const char* kLoginShell =
    "s=/bin/sh; case \"${SHELL##*/}\" in bash|zsh|ksh|dash|sh) "
    "[ -x \"$SHELL\" ] && s=$SHELL;; esac; "
    "exec \"$s\" -l -c \"$0\" gsrt-setup \"$@\"";

// A line as a message shows it: its first line, at most 200 bytes.
std::string Shown(const std::string& line) {
  std::string shown = line.substr(0, line.find('\n'));
  if (shown.size() > 200) shown = shown.substr(0, 200) + "...";
  if (shown.size() < line.size()) shown += " ...";
  return shown;
}

std::string Script(const std::string& host_name, const HostEnvironment& e) {
  const std::string host = ShellQuote("gsrt: host '" + host_name + "'");
  std::string script =
      "gsrt_setup_failed() { printf " +
      ShellQuote(
          "%s: setup line %s failed with exit status %s: %s; fix the "
          "host's setup (or host_defaults) in gsrt.yaml\n") +
      " " + host + " \"$1\" \"$2\" \"$3\" >&2; trap - EXIT; exit " +
      std::to_string(kSetupFailedExit) + "; }\n";
  for (const auto& [name, value] : e.env) {
    script += "export " + name + "=" + ShellQuote(value) + "\n";
  }
  if (!e.setup.empty()) {
    // A line that ends the shell (`exit 3`) is a failing line too.
    script +=
        "trap 'gsrt_status=$?; trap - EXIT; gsrt_setup_failed "
        "\"$gsrt_line\" \"$gsrt_status\" \"$gsrt_shown (it ended the "
        "shell)\"' EXIT\n";
  }
  for (size_t i = 0; i < e.setup.size(); ++i) {
    // A brace group runs in this shell, so what a line exports stays.
    const std::string n = std::to_string(i + 1);
    const std::string shown = ShellQuote(Shown(e.setup[i]));
    script += "gsrt_line=" + n + " gsrt_shown=" + shown + "\n{ " + e.setup[i] +
              "\n} >&2 || gsrt_setup_failed " + n + " \"$?\" " + shown + "\n";
  }
  if (!e.setup.empty()) script += "trap - EXIT\n";
  if (!e.launcher.empty()) {
    const std::string program = ShellQuote(e.launcher[0]);
    script += "command -v " + program + " >/dev/null 2>&1 || { printf " +
              ShellQuote(
                  "%s: the launcher '%s' is not installed (not found "
                  "in PATH=%s); install it or change the host's "
                  "launcher in gsrt.yaml\n") +
              " " + host + " " + program + " \"$PATH\" >&2; exit " +
              std::to_string(kLauncherMissingExit) + "; }\n";
  }
  return script + "exec \"$@\"\n";
}

}  // namespace

std::vector<std::string> InHostEnvironment(const std::string& host_name,
                                           const HostEnvironment& environment,
                                           std::vector<std::string> then) {
  if (environment.empty()) return then;
  std::vector<std::string> argv = {"/bin/sh", "-c"};
  if (environment.setup.empty()) {
    argv.push_back(Script(host_name, environment));
    argv.push_back("gsrt-setup");
  } else {
    argv.push_back(kLoginShell);
    argv.push_back(Script(host_name, environment));
  }
  argv.insert(argv.end(), std::make_move_iterator(then.begin()),
              std::make_move_iterator(then.end()));
  return argv;
}

bool IsSetupFailure(int exit_code) {
  return exit_code == kSetupFailedExit || exit_code == kLauncherMissingExit;
}

std::string DescribeSetupFailure(std::string_view where, int exit_code,
                                 std::string_view stderr_text) {
  // The wrapper's own message is its last line; the lines before it are
  // what the setup printed (module's complaint, say): the last dozen that
  // are not blank (Lmod's messages hold many blank lines).
  std::vector<std::string_view> lines;
  size_t at = 0;
  while (at < stderr_text.size()) {
    size_t nl = stderr_text.find('\n', at);
    if (nl == std::string_view::npos) nl = stderr_text.size();
    std::string_view line = stderr_text.substr(at, nl - at);
    if (line.find_first_not_of(" \t\r") != std::string_view::npos) {
      lines.push_back(line);
    }
    at = nl + 1;
  }
  constexpr size_t kKept = 12;
  std::string tail;
  for (size_t i = lines.size() > kKept ? lines.size() - kKept : 0;
       i < lines.size(); ++i) {
    tail += (tail.empty() ? "" : "\n") + std::string(lines[i].substr(0, 300));
  }
  const std::string what = exit_code == kLauncherMissingExit
                               ? "its launcher cannot start"
                               : "its setup failed";
  if (tail.empty()) {
    return std::string(where) + ": " + what + " (exit status " +
           std::to_string(exit_code) + ", nothing on stderr)";
  }
  return std::string(where) + ": " + what + ":\n" + tail;
}

}  // namespace gs
