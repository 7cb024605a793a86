#include "adapters/local/worker_launch.h"

#include <unistd.h>

#include <fstream>
#include <iterator>
#include <sstream>

#include "adapters/host_environment.h"
#include "runtime/base/process_spawn.h"

extern char** environ;

namespace gs {
namespace {

std::string ValueOf(const std::vector<std::string>& environment,
                    const std::string& name) {
  for (const std::string& e : environment) {
    if (e.size() > name.size() && e.compare(0, name.size(), name) == 0 &&
        e[name.size()] == '=') {
      return e.substr(name.size() + 1);
    }
  }
  return "";
}

// The master's environment with `env` set over it.
std::vector<std::string> WithVariables(
    const std::map<std::string, std::string>& env) {
  std::vector<std::string> out;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string entry(*e);
    if (!env.count(entry.substr(0, entry.find('=')))) out.push_back(entry);
  }
  for (const auto& [name, value] : env) out.push_back(name + "=" + value);
  return out;
}

// Runs the setup and returns the environment it leaves.
StatusOr<std::vector<std::string>> EnvironmentAfterSetup(
    const std::string& host_name, const HostEnvironment& environment,
    const std::string& scratch_dir) {
  const std::string dump =
      scratch_dir + "/setup-environment." + std::to_string(::getpid());
  const std::vector<std::string> argv = InHostEnvironment(
      host_name, environment, {"/bin/sh", "-c", "exec env -0 > \"$0\"", dump});
  auto ran = RunProgram(argv, kSetupTimeout);
  if (!ran.ok()) {
    ::unlink(dump.c_str());
    return ran.status().WithContext("host '" + host_name + "': its setup");
  }
  if (IsSetupFailure(ran->exit_code)) {
    ::unlink(dump.c_str());
    return Status::FailedPrecondition(DescribeSetupFailure(
        "host '" + host_name + "'", ran->exit_code, ran->err));
  }
  std::ifstream in(dump, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)),
                   std::istreambuf_iterator<char>());
  ::unlink(dump.c_str());
  if (ran->exit_code != 0 || text.empty()) {
    std::string why = "exit status " + std::to_string(ran->exit_code);
    if (ran->signal != 0) why = "signal " + std::to_string(ran->signal);
    return Status::FailedPrecondition(
        DescribeSetupFailure("host '" + host_name + "'", kSetupFailedExit,
                             ran->err) +
        "\n(the shell running it ended with " + why + ")");
  }
  std::vector<std::string> out;
  std::istringstream entries(text);
  for (std::string e; std::getline(entries, e, '\0');) {
    // `_` is the shell's own (the last command's path).
    if (!e.empty() && e.rfind("_=", 0) != 0) out.push_back(std::move(e));
  }
  return out;
}

}  // namespace

std::vector<std::string> WorkerLaunch::Argv(
    const std::vector<std::string>& worker_argv) const {
  std::vector<std::string> argv = launcher;
  argv.insert(argv.end(), worker_argv.begin(), worker_argv.end());
  return argv;
}

StatusOr<WorkerLaunch> PrepareWorkerLaunch(const std::string& host_name,
                                           const HostEnvironment& environment,
                                           const std::string& scratch_dir) {
  WorkerLaunch launch;
  if (environment.empty()) return launch;
  if (!environment.setup.empty()) {
    auto after = EnvironmentAfterSetup(host_name, environment, scratch_dir);
    if (!after.ok()) return after.status();
    launch.environment = std::move(after).value();
  } else if (!environment.env.empty()) {
    launch.environment = WithVariables(environment.env);
  }
  if (!environment.launcher.empty()) {
    const std::string path =
        launch.environment.empty()
            ? (std::getenv("PATH") ? std::getenv("PATH") : "/usr/bin:/bin")
            : ValueOf(launch.environment, "PATH");
    const std::string program = FindInPath(environment.launcher[0], path);
    if (program.empty() || ::access(program.c_str(), X_OK) != 0) {
      return Status::FailedPrecondition(
          "host '" + host_name + "': its launcher '" + environment.launcher[0] +
          "' is not installed (not found in PATH=" + path +
          "); install it or change the host's launcher in gsrt.yaml");
    }
    launch.launcher = environment.launcher;
    launch.launcher[0] = program;
  }
  return launch;
}

}  // namespace gs
