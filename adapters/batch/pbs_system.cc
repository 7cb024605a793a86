// PBS/Torque-style commands: qsub, qstat, qdel (tested against Debian's
// slurm-wlm-torque wrappers). No job arrays: their syntax and element
// naming differ between PBS flavours, so every job is its own qsub.
#include <algorithm>
#include <sstream>

#include "adapters/batch/batch_system.h"

namespace gs {

namespace {

// "123.server" and "123" name the same job.
std::string ShortId(std::string_view id) {
  return std::string(id.substr(0, id.find('.')));
}

class PbsSystem : public BatchSystem {
 public:
  std::string_view kind() const override { return "pbs"; }
  std::vector<std::string> Programs() const override {
    return {"qsub", "qstat", "qdel"};
  }
  bool SupportsArrays() const override { return false; }

  // The queues, not the jobs: a jobs listing may fail on an empty queue
  // (Slurm's qstat wrapper exits 153 when it lists nothing).
  std::vector<std::string> CheckArgv() const override {
    return {"qstat", "-Q"};
  }
  std::optional<int> ParseMaxArraySize(std::string_view) const override {
    return std::nullopt;
  }
  std::vector<std::string> PartitionArgv(
      const std::string& partition) const override {
    return {"qstat", "-Q", partition};
  }

  std::vector<std::string> SubmitArgv(const BatchConfig& c,
                                      const BatchSubmission& job,
                                      bool test_only) const override {
    if (test_only) return {};
    std::vector<std::string> argv = {"qsub", "-N", job.name,  "-j",
                                     "oe",   "-o", job.output};
    if (!c.partition.empty()) argv.insert(argv.end(), {"-q", c.partition});
    if (!c.account.empty()) argv.insert(argv.end(), {"-A", c.account});
    std::string resources =
        job.nodes > 0 ? "nodes=" + std::to_string(job.nodes) +
                            ":ppn=" + std::to_string(job.TasksPerNode())
                      : "nodes=1:ppn=" +
                            std::to_string(std::max(c.cpus_per_task, job.cpus));
    if (job.gpus > 0) resources += ":gpus=" + std::to_string(job.gpus);
    if (c.walltime > 0)
      resources += ",walltime=" + FormatPbsWalltime(c.walltime);
    if (int64_t mem = std::max(c.mem_mb, job.mem_mb); mem > 0) {
      resources += ",mem=" + std::to_string(mem) + "mb";
    }
    argv.insert(argv.end(), {"-l", resources});
    argv.insert(argv.end(), c.extra.begin(), c.extra.end());
    argv.push_back(job.script);
    return argv;
  }

  StatusOr<std::string> ParseSubmitted(std::string_view out) const override {
    std::string id(out.substr(0, out.find_first_of(" \n")));
    if (id.empty() || id[0] < '0' || id[0] > '9') {
      return Status::Internal("qsub printed no job id: '" +
                              std::string(out.substr(0, 80)) + "'");
    }
    return ShortId(id);
  }
  std::string ElementId(const std::string& id, int) const override {
    return id;
  }

  std::vector<std::string> ListArgv(const std::string&) const override {
    return {"qstat"};
  }
  bool ListedNothing(int code) const override {
    // Slurm's qstat wrapper (Debian's slurm-wlm-torque) exits 153 when no
    // job is queued; read as an empty queue, lost jobs are still noticed.
    return code == 153;
  }
  std::map<std::string, std::string> ParseList(
      std::string_view out) const override {
    // Job id  Name  User  Time Use  S  Queue; after a line of dashes.
    std::map<std::string, std::string> jobs;
    std::istringstream lines{std::string(out)};
    bool body = false;
    for (std::string line; std::getline(lines, line);) {
      if (!body) {
        body = line.starts_with("---");
        continue;
      }
      std::istringstream words(line);
      std::string id, name, user, time, state;
      if (!(words >> id >> name >> user >> time >> state)) continue;
      if (state == "C") continue;  // completed: no longer queued
      jobs[ShortId(id)] = state;
    }
    return jobs;
  }

  std::vector<std::string> CancelArgv(
      const std::vector<std::string>& ids) const override {
    std::vector<std::string> argv = {"qdel"};
    argv.insert(argv.end(), ids.begin(), ids.end());
    return argv;
  }
};

}  // namespace

std::unique_ptr<BatchSystem> MakePbsSystem() {
  return std::make_unique<PbsSystem>();
}

}  // namespace gs
