#include "adapters/batch/batch_commands.h"

#include <cstdlib>
#include <sstream>

#include "runtime/base/shell_quote.h"

namespace gs {

std::string FirstLines(const std::string& text, int lines) {
  std::istringstream in(text);
  std::string out;
  for (std::string line; lines > 0 && std::getline(in, line);) {
    while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) {
      line.pop_back();
    }
    if (line.empty()) continue;
    out += (out.empty() ? "" : "; ") + line;
    --lines;
  }
  return out;
}

std::string CommandText(const std::vector<std::string>& argv) {
  std::string text;
  for (const std::string& a : argv) {
    text += (text.empty() ? "" : " ") + ShellQuote(a);
  }
  return text;
}

BatchCommands::BatchCommands(std::string host_name,
                             std::unique_ptr<BatchSystem> system,
                             BatchConfig config, std::string where)
    : host_(std::move(host_name)),
      system_(std::move(system)),
      config_(std::move(config)),
      where_(std::move(where)) {}

StatusOr<ProgramOutput> BatchCommands::Run(const std::vector<std::string>& argv,
                                           Seconds timeout,
                                           std::function<bool(int)> also_fine) {
  std::vector<std::string> resolved = argv;
  resolved[0] = runner_ ? argv[0] : FindInPath(argv[0]);
  if (resolved[0].empty()) {
    return Status::NotFound(
        Host() + ": " + argv[0] + " is not in PATH; install the " +
        std::string(system_->kind()) +
        " client commands on this machine (Debian: slurm-client, or "
        "slurm-wlm-torque for qsub/qstat/qdel)");
  }
  auto out =
      runner_ ? runner_(resolved, timeout) : RunProgram(resolved, timeout);
  if (!out.ok()) {
    return out.status().WithContext(Host() + ": `" + CommandText(argv) + "`");
  }
  if (out->exit_code != 0 &&
      !(out->signal == 0 && also_fine && also_fine(out->exit_code))) {
    std::string why = FirstLines(out->err.empty() ? out->out : out->err);
    return Status::Unavailable(
        Host() + ": `" + CommandText(argv) + "` " +
        (out->signal != 0
             ? "was killed by signal " + std::to_string(out->signal)
             : "exited with code " + std::to_string(out->exit_code)) +
        (why.empty() ? "" : ": " + why));
  }
  return out;
}

StatusOr<int> BatchCommands::Check(const std::string& probe_script) {
  for (const std::string& program : system_->Programs()) {
    if (runner_) break;  // on the login node: a missing one fails below
    if (FindInPath(program).empty()) {
      return Status::NotFound(
          Host() + ": " + program + " is not in PATH; install the " +
          std::string(system_->kind()) +
          " client commands here or run the master on a login node");
    }
  }
  auto check = Run(system_->CheckArgv(), 20);
  if (!check.ok()) {
    const char* conf = std::getenv("SLURM_CONF");
    return Status::Unavailable(
        "cannot reach " + std::string(system_->kind()) + " for " +
        check.status().message() +
        ". Is the controller running and reachable from here" +
        (system_->kind() == "slurm"
             ? std::string(", and does SLURM_CONF (") +
                   (conf ? conf : "unset: /etc/slurm/slurm.conf") +
                   ") name its configuration"
             : std::string()) +
        "?");
  }
  if (!config_.partition.empty()) {
    auto argv = system_->PartitionArgv(config_.partition);
    if (!argv.empty()) {
      auto part = Run(argv, 20);
      if (!part.ok()) {
        return Status::NotFound(
            where_ + Host() + ": partition '" + config_.partition +
            "' does not exist on this cluster (" + part.status().message() +
            "); fix `partition:` (sinfo lists the partitions)");
      }
    }
  }
  BatchSubmission probe;
  probe.name = "gsrt-check";
  probe.script = probe_script;
  probe.output = "/dev/null";
  auto test = system_->SubmitArgv(config_, probe, /*test_only=*/true);
  if (!test.empty()) {
    auto out = Run(test, 30);
    if (!out.ok()) {
      return Status::InvalidArgument(
          where_ + Host() + ": " + std::string(test[0]) +
          " refuses the job options from gsrt.yaml (" + out.status().message() +
          "); check partition, account, qos, walltime, cpus_per_task, mem "
          "and extra");
    }
    checked_start_ = system_->ParseTestOnlyStart(out->err + "\n" + out->out);
  }
  if (!system_->SupportsArrays()) return 1;
  std::optional<int> max = system_->ParseMaxArraySize(check->out);
  // Indices run 0..max-1; a cluster that says nothing gets Slurm's default.
  return max && *max > 1 ? *max : 1001;
}

StatusOr<std::string> BatchCommands::Submit(const BatchSubmission& job) {
  auto out = Run(system_->SubmitArgv(config_, job, false), 60);
  if (!out.ok()) return out.status();
  auto id = system_->ParseSubmitted(out->out);
  if (!id.ok()) return id.status().WithContext(Host());
  return id;
}

Status BatchCommands::Cancel(const std::vector<std::string>& ids) {
  if (ids.empty()) return Status::Ok();
  auto out = Run(system_->CancelArgv(ids), 30);
  return out.status();
}

StatusOr<std::map<std::string, std::string>> BatchCommands::List(
    const std::string& name) {
  auto out = Run(system_->ListArgv(name), 30,
                 [this](int code) { return system_->ListedNothing(code); });
  if (!out.ok()) return out.status();
  if (out->exit_code != 0) return std::map<std::string, std::string>();
  return system_->ParseList(out->out);
}

StatusOr<std::map<std::string, Seconds>> BatchCommands::Starts(
    const std::string& name) {
  const std::vector<std::string> argv = system_->StartsArgv(name);
  if (argv.empty()) return std::map<std::string, Seconds>();
  auto out =
      Run(argv, 30, [this](int code) { return system_->ListedNothing(code); });
  if (!out.ok()) return out.status();
  if (out->exit_code != 0) return std::map<std::string, Seconds>();
  return system_->ParseStarts(out->out);
}

QueueListings ListByJobName(BatchCommands& commands,
                            const std::vector<std::string>& job_names) {
  QueueListings listings;
  for (const std::string& name : job_names) {
    if (!listings.count(name)) listings.emplace(name, commands.List(name));
  }
  return listings;
}

}  // namespace gs
