#include "runtime/graph/task_graph.h"

#include <cassert>

namespace gs {

VersionId TaskGraph::LatestVersion(FileId file) {
  uint32_t latest = files_->latest(file);
  if (latest != FileTable::kNone) return latest;
  // First use: version 0 is the user's file as it is now.
  VersionId v = static_cast<VersionId>(versions_.size());
  Version& ver = versions_.emplace_back();
  ver.file = file;
  ver.number = files_->version_count(file)++;
  ver.producer = kMasterTask;
  ver.state = VersionState::kAvailable;
  files_->set_latest(file, v);
  return v;
}

VersionId TaskGraph::NewVersion(FileId file, TaskId producer) {
  uint32_t previous = files_->latest(file);
  VersionId v = static_cast<VersionId>(versions_.size());
  Version& ver = versions_.emplace_back();
  ver.file = file;
  // Number 0 is reserved for the user's original file, even if never read.
  if (files_->version_count(file) == 0) files_->version_count(file) = 1;
  ver.number = files_->version_count(file)++;
  ver.producer = producer;
  ver.state = VersionState::kPending;
  files_->set_latest(file, v);
  if (previous != FileTable::kNone) CheckGarbage(previous);
  return v;
}

TaskId TaskGraph::AddTask(OpId op, const FileParam* params, int num_params,
                          std::string_view scalars) {
  TaskId t = static_cast<TaskId>(tasks_.size());
  Task& task = tasks_.emplace_back();
  task.op = op;
  task.num_files = static_cast<uint16_t>(num_params);
  task.first_file = static_cast<uint32_t>(accesses_.size());
  task.scalars_offset = arena_.size();
  task.scalars_size = static_cast<uint32_t>(scalars.size());
  arena_.append(scalars);
  accesses_.resize(accesses_.size() + num_params);
  FileAccess* acc = accesses_.data() + task.first_file;
  FileId ids[64];
  FileId* id = num_params <= 64 ? ids : new FileId[num_params];
  // Reads first, then writes: a task that reads and writes one name (as
  // two parameters) reads the old version, never its own output.
  for (int i = 0; i < num_params; ++i) {
    id[i] = files_->Intern(params[i].name);
    if (!params[i].reads) continue;
    VersionId v = LatestVersion(id[i]);
    acc[i].in = v;
    Version& ver = versions_[v];
    ++ver.readers;
    if (ver.state != VersionState::kAvailable) {
      ++task.missing_inputs;
      wait_lists_.Append(&ver.waiting, t);
    }
  }
  for (int i = 0; i < num_params; ++i) {
    if (params[i].writes) acc[i].out = NewVersion(id[i], t);
  }
  if (id != ids) delete[] id;
  // A read of a version that will never be written dooms the task at once.
  bool doomed = false;
  for (int i = 0; i < num_params; ++i) {
    if (acc[i].in != kNoVersion &&
        versions_[acc[i].in].state == VersionState::kLost) {
      doomed = true;
    }
  }
  if (doomed) {
    std::vector<TaskId> futile;
    tasks_[t].state = TaskState::kFutile;
    MarkFailed(t, &futile);
    tasks_[t].state = TaskState::kFutile;
  } else if (task.missing_inputs == 0) {
    task.state = TaskState::kReady;
  }
  return t;
}

void TaskGraph::MarkAvailable(VersionId v, std::vector<TaskId>* now_ready) {
  Version& ver = versions_[v];
  assert(ver.state == VersionState::kPending);
  ver.state = VersionState::kAvailable;
  wait_lists_.ForEach(ver.waiting, [&](TaskId t) {
    Task& task = tasks_[t];
    if (task.state != TaskState::kWaiting) return;
    if (--task.missing_inputs == 0) {
      task.state = TaskState::kReady;
      now_ready->push_back(t);
    }
  });
  wait_lists_.Clear(&ver.waiting);
  CheckGarbage(v);
}

void TaskGraph::MarkDone(TaskId t, std::vector<TaskId>* now_ready) {
  Task& task = tasks_[t];
  task.state = TaskState::kDone;
  const uint32_t first = task.first_file;
  for (uint32_t i = 0; i < task.num_files; ++i) {
    FileAccess a = accesses_[first + i];
    if (a.out != kNoVersion) MarkAvailable(a.out, now_ready);
  }
  for (uint32_t i = 0; i < task.num_files; ++i) {
    FileAccess a = accesses_[first + i];
    if (a.in != kNoVersion) ReleaseReader(a.in);
  }
}

void TaskGraph::MarkFailed(TaskId t, std::vector<TaskId>* futile) {
  std::vector<TaskId> stack{t};
  if (tasks_[t].state != TaskState::kFutile)
    tasks_[t].state = TaskState::kFailed;
  while (!stack.empty()) {
    TaskId cur = stack.back();
    stack.pop_back();
    const Task& task = tasks_[cur];
    for (uint32_t i = 0; i < task.num_files; ++i) {
      FileAccess a = accesses_[task.first_file + i];
      if (a.in != kNoVersion) ReleaseReader(a.in);
      if (a.out == kNoVersion) continue;
      Version& ver = versions_[a.out];
      ver.state = VersionState::kLost;
      wait_lists_.ForEach(ver.waiting, [&](TaskId reader) {
        TaskState& s = tasks_[reader].state;
        if (s == TaskState::kWaiting || s == TaskState::kReady) {
          s = TaskState::kFutile;
          futile->push_back(reader);
          stack.push_back(reader);
        }
      });
      wait_lists_.Clear(&ver.waiting);
    }
  }
}

void TaskGraph::ReleaseReader(VersionId v) {
  Version& ver = versions_[v];
  assert(ver.readers > 0);
  if (--ver.readers == 0) CheckGarbage(v);
}

bool TaskGraph::IsGarbage(VersionId v) const {
  const Version& ver = versions_[v];
  return ver.readers == 0 && ver.number != 0 &&
         ver.state == VersionState::kAvailable && files_->latest(ver.file) != v;
}

void TaskGraph::CheckGarbage(VersionId v) {
  if (IsGarbage(v)) garbage_.push_back(v);
}

std::vector<VersionId> TaskGraph::TakeGarbage() {
  std::vector<VersionId> out;
  out.swap(garbage_);
  return out;
}

size_t TaskGraph::MappedBytes() const {
  return tasks_.capacity() * sizeof(Task) +
         accesses_.capacity() * sizeof(FileAccess) +
         versions_.capacity() * sizeof(Version) + wait_lists_.MemoryUsage();
}

size_t TaskGraph::MemoryUsage() const {
  return MappedBytes() + arena_.capacity() + files_->MemoryUsage();
}

}  // namespace gs
