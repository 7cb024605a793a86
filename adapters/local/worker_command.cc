#include "adapters/local/worker_command.h"

#include <string>

namespace gs {

namespace {

bool HasNul(std::string_view s) {
  return s.find('\0') != std::string_view::npos;
}

Status BadParam(const JobSpec& spec, size_t index, std::string_view what) {
  return Status::InvalidArgument(
      "job " + std::to_string(spec.id) + " (operation '" + spec.operation +
      "'), parameter " + std::to_string(index) + ": " + std::string(what));
}

}  // namespace

std::string OutputTempPath(std::string_view sandbox, int index) {
  std::string path(sandbox);
  path += "/out.";
  path += std::to_string(index);
  return path;
}

StatusOr<WorkerCommand> BuildWorkerCommand(const JobSpec& spec,
                                           std::string_view sandbox) {
  const std::string job = "job " + std::to_string(spec.id);
  if (spec.worker.empty() || spec.worker.front() != '/' ||
      HasNul(spec.worker)) {
    return Status::InvalidArgument(
        job + ": the worker path '" + spec.worker +
        "' is not an absolute path; give the full path of the worker program");
  }
  if (spec.operation.empty() || HasNul(spec.operation)) {
    return Status::InvalidArgument(job + ": empty or malformed operation name");
  }
  if (sandbox.empty() || sandbox.front() != '/') {
    return Status::InvalidArgument(job + ": the sandbox directory '" +
                                   std::string(sandbox) +
                                   "' is not an absolute path");
  }

  WorkerCommand cmd;
  cmd.result_path = std::string(sandbox) + "/result";
  cmd.argv.reserve(4 + spec.params.size());
  cmd.argv.push_back(spec.worker);
  cmd.argv.push_back("run");
  cmd.argv.push_back(spec.operation);
  cmd.argv.push_back(cmd.result_path);

  for (size_t i = 0; i < spec.params.size(); ++i) {
    const JobParam& p = spec.params[i];
    switch (p.kind) {
      case JobParam::Kind::kScalar:
      case JobParam::Kind::kInOutScalar:
        if (HasNul(p.value)) {
          return BadParam(spec, i,
                          "value holds a NUL byte, which argv cannot "
                          "carry");
        }
        cmd.argv.push_back(p.value);
        break;
      case JobParam::Kind::kOutScalar:
        cmd.argv.emplace_back();
        break;
      case JobParam::Kind::kFileIn:
        if (p.source.empty() || HasNul(p.source)) {
          return BadParam(spec, i, "input file without a valid source path");
        }
        cmd.argv.push_back(p.source);
        break;
      case JobParam::Kind::kFileOut:
      case JobParam::Kind::kFileInOut: {
        const bool inout = p.kind == JobParam::Kind::kFileInOut;
        if (p.dest.empty() || HasNul(p.dest)) {
          return BadParam(spec, i, "output file without a valid dest path");
        }
        if (inout && (p.source.empty() || HasNul(p.source))) {
          return BadParam(spec, i, "inout file without a valid source path");
        }
        OutputMove move;
        move.param_index = static_cast<int>(i);
        move.temp = OutputTempPath(sandbox, static_cast<int>(i));
        move.dest = p.dest;
        if (inout) move.source = p.source;
        cmd.argv.push_back(move.temp);
        cmd.outputs.push_back(std::move(move));
        break;
      }
    }
  }
  return cmd;
}

}  // namespace gs
