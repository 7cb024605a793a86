#include "runtime/engine/run_naming.h"

#include <variant>

#include "runtime/engine/call_text.h"

namespace gs {

void RunNaming::NameUserFiles(
    TaskId task, HostId host,
    const std::vector<std::pair<std::string, std::string>>& replica_outputs,
    JobReport* report) const {
  std::string* text = nullptr;
  if (auto* exited = std::get_if<Exited>(&report->outcome)) {
    text = &exited->error;
  } else if (auto* failed = std::get_if<HostFailed>(&report->outcome)) {
    text = &failed->reason;
  }
  if (text == nullptr || text->empty()) return;
  std::vector<PathName> names;
  const FileAccess* acc = graph_.accesses(task);
  for (uint32_t i = 0; i < graph_.task(task).num_files; ++i) {
    for (VersionId v : {acc[i].in, acc[i].out}) {
      if (v != kNoVersion) AddVersionNames(v, host, &names);
    }
  }
  for (const auto& [dest, final_path] : replica_outputs) {
    names.push_back({dest, WithUserNames(final_path, names)});
  }
  *text = WithUserNames(*text, std::move(names));
}

void RunNaming::AddVersionNames(VersionId v, HostId host,
                                std::vector<PathName>* names) const {
  std::string name = UserNameOf(graph_.version(v).file);
  if (host != kNoHost) names->push_back({data_.PathOn(v, host), name});
  names->push_back({data_.VersionPath(v), name});
  names->push_back({data_.VersionFileName(v), name});
}

std::string RunNaming::CallText(TaskId t) const {
  const Task& task = graph_.task(t);
  const FileAccess* acc = graph_.accesses(t);
  std::vector<std::string> files;
  for (uint32_t i = 0; i < task.num_files; ++i) {
    VersionId v = acc[i].in != kNoVersion ? acc[i].in : acc[i].out;
    files.push_back(v == kNoVersion ? "?" : UserNameOf(graph_.version(v).file));
  }
  return FormatCall(*ops_[task.op].desc, graph_.scalars(t), files);
}

std::string RunNaming::UserNameOf(FileId f) const {
  return UserFileName(cwd_, files_.path(f));
}

SyncStop RunNaming::SyncStopOf(TaskId t,
                               const std::vector<TaskFailure>& failures) const {
  const Task& task = graph_.task(t);
  SyncStop stop;
  stop.task = t;
  stop.operation = ops_[task.op].name;
  stop.call = CallText(t);
  stop.not_run = task.state == TaskState::kFutile;
  stop.error = "it failed";
  for (const TaskFailure& f : failures) {
    if (f.task == t) stop.error = f.error;
  }
  // Not run: follow the unwritten inputs up to the task that failed.
  TaskId cur = t;
  for (int depth = 0; stop.not_run && depth < 1000; ++depth) {
    const FileAccess* acc = graph_.accesses(cur);
    VersionId lost = kNoVersion;
    for (uint32_t i = 0; i < graph_.task(cur).num_files; ++i) {
      if (acc[i].in != kNoVersion &&
          graph_.version(acc[i].in).state == VersionState::kLost) {
        lost = acc[i].in;
        break;
      }
    }
    if (lost == kNoVersion) break;
    if (cur == t) stop.missing_file = UserNameOf(graph_.version(lost).file);
    cur = graph_.version(lost).producer;
    if (cur == kMasterTask) break;
    if (graph_.task(cur).state == TaskState::kFailed) {
      stop.cause_task = cur;
      stop.cause_operation = ops_[graph_.task(cur).op].name;
      break;
    }
  }
  return stop;
}

}  // namespace gs
