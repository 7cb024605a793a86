#include "runtime/inspect/testbed_cli.h"

#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <filesystem>
#include <vector>

#include "runtime/base/process_spawn.h"

namespace gs {

namespace fs = std::filesystem;

namespace {

constexpr char kTestbedFooter[] =
    "Exit codes: 0 done; 1 could not start, stop or reach the hosts (the "
    "reason on stderr); 2 bad command line. Run as root to have "
    "openssh-server (and for --slurm, slurm-wlm and munge) installed when "
    "missing; --slurm needs root.";

bool IsFile(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

// True if `path` is `dir` or lies below it.
bool Below(const fs::path& path, const fs::path& dir) {
  auto rel = path.lexically_normal().lexically_relative(dir.lexically_normal());
  return !rel.empty() && *rel.begin() != "..";
}

}  // namespace

std::string FindTestbedScript(const std::string& self) {
  const fs::path exe_dir = fs::path(self).parent_path();
  const fs::path installed = exe_dir / GSRT_TESTBED_RELATIVE / "testbed.sh";
  if (IsFile(installed)) return installed.lexically_normal().string();
  const fs::path source = fs::path(GSRT_TESTBED_SOURCE_DIR) / "testbed.sh";
  if (Below(exe_dir, GSRT_BUILD_DIR) && IsFile(source)) return source.string();
  return "";
}

CLI::App* AddTestbedCommand(CLI::App& app, TestbedArgs* a) {
  CLI::App* testbed = app.add_subcommand(
      "testbed",
      "Start, check and stop hosts to try gsrt on this machine: sshd hosts "
      "on 127.0.0.2, 127.0.0.3, ... (free ports, their own keys) and a "
      "one-node Slurm, and write DIR/gsrt.yaml naming them.");
  testbed->require_subcommand(1);
  testbed->footer(kTestbedFooter);
  const char* dir_help =
      "directory holding the hosts' keys, logs, work dirs and gsrt.yaml "
      "(default: gsrt-testbed)";
  a->start = testbed->add_subcommand(
      "start",
      "Start the hosts (again, if some stopped) and write DIR/gsrt.yaml; "
      "prints each host, the config and how to stop them. Without "
      "options: 2 ssh hosts.");
  a->start->add_option("--ssh", a->ssh, "number of sshd hosts (0: none)")
      ->type_name("N")
      ->check(CLI::Range(0, 250));
  a->start->add_flag("--slurm", a->slurm,
                     "also a one-node Slurm cluster (needs root); the "
                     "master needs its SLURM_CONF: source "
                     "DIR/slurm/slurm.env");
  a->start->add_option("--dir", a->dir, dir_help)->type_name("DIR");
  a->start->footer(kTestbedFooter);
  a->stop = testbed->add_subcommand(
      "stop", "Stop every host started under DIR and what runs on them.");
  a->stop->add_option("--dir", a->dir, dir_help)->type_name("DIR");
  a->stop->footer(kTestbedFooter);
  a->status = testbed->add_subcommand(
      "status", "Say which hosts under DIR answer; exit 0 if all do.");
  a->status->add_option("--dir", a->dir, dir_help)->type_name("DIR");
  a->status->footer(kTestbedFooter);
  return testbed;
}

int RunTestbed(const TestbedArgs& a, std::ostream& err) {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  const std::string script = ec ? "" : FindTestbedScript(self.string());
  if (script.empty()) {
    err << "gsrt testbed: testbed.sh is not installed beside gsrt (looked in "
        << (self.parent_path() / GSRT_TESTBED_RELATIVE)
               .lexically_normal()
               .string()
        << "): install gsrt with `cmake --install`, or run the gsrt of a "
           "build tree\n";
    return 1;
  }
  const std::string dir = fs::absolute(a.dir, ec).lexically_normal().string();
  std::vector<std::string> argv{FindInPath("bash"), script};
  if (a.start->parsed()) {
    const int ssh = a.ssh.value_or(a.slurm ? 0 : 2);
    argv.insert(argv.end(),
                {"start", dir, std::to_string(ssh), a.slurm ? "1" : "0"});
  } else if (a.stop->parsed()) {
    argv.insert(argv.end(), {"stop", dir});
  } else {
    argv.insert(argv.end(), {"status", dir});
  }
  if (argv[0].empty()) {
    err << "gsrt testbed: bash is not in PATH\n";
    return 1;
  }
  err.flush();
  SpawnRequest request;
  request.argv = &argv;
  request.own_process_group = false;  // Ctrl-C reaches it too
  auto child = SpawnProcess(request);
  if (!child.ok()) {
    err << "gsrt testbed: cannot run " << script << ": "
        << child.status().message() << "\n";
    return 1;
  }
  close(child->pidfd);
  int status = 0;
  while (waitpid(child->pid, &status, 0) < 0) {
    if (errno != EINTR) return 1;
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 1;
}

}  // namespace gs
