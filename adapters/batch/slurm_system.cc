// Slurm's commands: sbatch --parsable, squeue --array by job name, scancel,
// and `scontrol show config` for reachability and MaxArraySize.
#include <algorithm>
#include <cmath>
#include <ctime>
#include <sstream>

#include "adapters/batch/batch_system.h"
#include "runtime/base/units.h"

namespace gs {

std::string FormatPbsWalltime(Seconds seconds) {
  const long total = static_cast<long>(std::ceil(seconds));
  char buf[32];
  std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", total / 3600,
                total / 60 % 60, total % 60);
  return buf;
}

std::optional<Seconds> ParseSlurmTime(std::string_view text) {
  std::tm tm{};
  const std::string s(text);
  const char* end = ::strptime(s.c_str(), "%Y-%m-%dT%H:%M:%S", &tm);
  if (end == nullptr || *end != '\0') return std::nullopt;
  tm.tm_isdst = -1;  // as the local zone has it on that day
  const std::time_t t = std::mktime(&tm);
  if (t == static_cast<std::time_t>(-1)) return std::nullopt;
  return static_cast<Seconds>(t);
}

namespace {

class SlurmSystem : public BatchSystem {
 public:
  std::string_view kind() const override { return "slurm"; }
  std::vector<std::string> Programs() const override {
    return {"sbatch", "squeue", "scancel", "scontrol"};
  }
  bool SupportsArrays() const override { return true; }

  std::vector<std::string> CheckArgv() const override {
    return {"scontrol", "show", "config"};
  }
  std::optional<int> ParseMaxArraySize(std::string_view out) const override {
    std::istringstream lines{std::string(out)};
    for (std::string line; std::getline(lines, line);) {
      if (!line.starts_with("MaxArraySize")) continue;
      const size_t eq = line.find('=');
      if (eq == std::string::npos) continue;
      try {
        return std::stoi(line.substr(eq + 1));
      } catch (...) {
        return std::nullopt;
      }
    }
    return std::nullopt;
  }
  std::vector<std::string> PartitionArgv(
      const std::string& partition) const override {
    return {"scontrol", "show", "partition", partition};
  }

  std::vector<std::string> SubmitArgv(const BatchConfig& c,
                                      const BatchSubmission& job,
                                      bool test_only) const override {
    // --no-requeue: a job whose node fails ends (NODE_FAIL), and gsrt
    // runs its task again at once as the host's failure; Slurm would hold
    // a requeued job back for minutes.
    std::vector<std::string> argv = {"sbatch", "--parsable", "--no-requeue",
                                     "--job-name=" + job.name};
    if (test_only) argv.push_back("--test-only");
    if (job.array > 0) {
      argv.push_back("--array=0-" + std::to_string(job.array - 1));
      argv.push_back("--output=" + job.output + ".%a");
    } else {
      argv.push_back("--output=" + job.output);
    }
    if (!c.partition.empty()) argv.push_back("--partition=" + c.partition);
    if (!c.account.empty()) argv.push_back("--account=" + c.account);
    if (!c.qos.empty()) argv.push_back("--qos=" + c.qos);
    if (c.walltime > 0) argv.push_back("--time=" + FormatWalltime(c.walltime));
    if (job.nodes > 0) {
      // One task per MPI rank, on the nodes the queue picks all at once.
      argv.push_back("--nodes=" + std::to_string(job.nodes));
      argv.push_back("--ntasks-per-node=" + std::to_string(job.TasksPerNode()));
      argv.push_back("--cpus-per-task=" + std::to_string(c.cpus_per_task));
    } else {
      argv.push_back("--cpus-per-task=" +
                     std::to_string(std::max(c.cpus_per_task, job.cpus)));
    }
    if (int64_t mem = std::max(c.mem_mb, job.mem_mb); mem > 0) {
      argv.push_back("--mem=" + std::to_string(mem));
    }
    if (job.gpus > 0) argv.push_back("--gres=gpu:" + std::to_string(job.gpus));
    argv.insert(argv.end(), c.extra.begin(), c.extra.end());
    argv.push_back(job.script);
    return argv;
  }

  StatusOr<std::string> ParseSubmitted(std::string_view out) const override {
    // "123" or "123;cluster", then a newline.
    std::string id(out.substr(0, out.find_first_of(";\n")));
    if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos) {
      return Status::Internal("sbatch printed no job id: '" +
                              std::string(out.substr(0, 80)) + "'");
    }
    return id;
  }
  std::string ElementId(const std::string& id, int index) const override {
    return id + "_" + std::to_string(index);
  }

  std::vector<std::string> ListArgv(const std::string& name) const override {
    return {"squeue", "--noheader", "--array", "--name=" + name,
            "--format=%i %T"};
  }
  std::map<std::string, std::string> ParseList(
      std::string_view out) const override {
    std::map<std::string, std::string> jobs;
    std::istringstream lines{std::string(out)};
    std::string id, state;
    while (lines >> id >> state) jobs[id] = state;
    return jobs;
  }

  std::vector<std::string> CancelArgv(
      const std::vector<std::string>& ids) const override {
    std::vector<std::string> argv = {"scancel"};
    argv.insert(argv.end(), ids.begin(), ids.end());
    return argv;
  }

  std::vector<std::string> StartsArgv(const std::string& name) const override {
    return {"squeue",  "--noheader",     "--start",
            "--array", "--name=" + name, "--format=%i %S"};
  }
  std::map<std::string, Seconds> ParseStarts(
      std::string_view out) const override {
    std::map<std::string, Seconds> starts;
    std::istringstream lines{std::string(out)};
    std::string id, start;
    while (lines >> id >> start) {
      if (auto t = ParseSlurmTime(start)) starts[id] = *t;
    }
    return starts;
  }
  std::optional<Seconds> ParseTestOnlyStart(
      std::string_view out) const override {
    // "sbatch: Job 12 to start at 2026-12-07T16:30:00 using 2 processors
    // on nodes n1 in partition debug"
    constexpr std::string_view kAt = " to start at ";
    const size_t at = out.find(kAt);
    if (at == std::string_view::npos) return std::nullopt;
    std::string_view rest = out.substr(at + kAt.size());
    return ParseSlurmTime(rest.substr(0, rest.find_first_of(" \n")));
  }
};

}  // namespace

std::unique_ptr<BatchSystem> MakeSlurmSystem() {
  return std::make_unique<SlurmSystem>();
}

}  // namespace gs
