// The task graph with file versions: dependency analysis with renaming.
//
// Every write of a file creates a new version, so only true (read after
// write) dependencies remain as edges; reuse of a scratch file name across
// iterations does not serialise tasks. Pure data structure: no I/O, no
// locks, O(parameters) per added task.
#ifndef GSRT_RUNTIME_GRAPH_TASK_GRAPH_H_
#define GSRT_RUNTIME_GRAPH_TASK_GRAPH_H_

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/graph/file_table.h"
#include "runtime/graph/stable_array.h"
#include "runtime/graph/wait_lists.h"
#include "runtime/jobs/job.h"

namespace gs {

using OpId = uint32_t;
using VersionId = uint32_t;

inline constexpr VersionId kNoVersion = std::numeric_limits<VersionId>::max();
// The producer of versions the master program writes itself (initial files,
// GS_Open for writing).
inline constexpr TaskId kMasterTask = std::numeric_limits<TaskId>::max();
// What Engine::Submit returns for a call no host can run.
inline constexpr TaskId kRefusedTask = kMasterTask - 1;

enum class TaskState : uint8_t {
  kWaiting,  // some input version is not produced yet
  kReady,    // can run
  kRunning,  // a job is out
  kDone,
  kFailed,  // out of retries
  kFutile,  // an input will never be produced (an ancestor failed)
};

enum class VersionState : uint8_t {
  kPending,    // its producer has not finished
  kAvailable,  // written; readable at its path
  kLost,       // will never be written (producer failed or futile)
};

struct Version {
  FileId file = 0;
  uint32_t number = 0;  // 0 is the user's file as it was; 1.. are renamed
  TaskId producer = kMasterTask;
  VersionState state = VersionState::kPending;
  // Whether the master's machine (and every host sharing its files) holds
  // the data; copies on other hosts are kept by the engine's data layer.
  bool on_master = true;
  // Unfinished tasks (and open master descriptors) that read this version;
  // when it is superseded and this drops to 0 its data can be deleted.
  uint32_t readers = 0;
  uint64_t size = 0;
  // Tasks waiting for this version to become available (TaskGraph's
  // AddWaiting, RemoveWaiting, waiting).
  WaitList waiting;
};

// One file parameter of a task: the version it reads and/or writes.
struct FileAccess {
  VersionId in = kNoVersion;
  VersionId out = kNoVersion;
};

// 32 bytes (one per call a master makes): keep the fields packed.
struct Task {
  OpId op = 0;
  TaskState state = TaskState::kWaiting;
  uint16_t num_files = 0;
  uint32_t first_file = 0;      // index into TaskGraph::accesses()
  uint32_t missing_inputs = 0;  // input versions not yet available
  uint32_t attempts = 0;
  uint32_t scalars_size = 0;
  uint64_t scalars_offset = 0;  // encoded scalar args in the arena
};
static_assert(sizeof(Task) == 32);

// What a task does with one file, as the caller states it.
struct FileParam {
  std::string_view name;
  bool reads = false;
  bool writes = false;
};

class TaskGraph {
 public:
  explicit TaskGraph(FileTable* files) : files_(files) {}

  // Adds a task of `op` with its file parameters (in the operation's order)
  // and its encoded scalar arguments. Returns its id; the task is kReady if
  // every version it reads is available.
  TaskId AddTask(OpId op, const FileParam* params, int num_params,
                 std::string_view scalars);

  // The version the next reader of `file` gets (creating version 0, the
  // user's own file, on first use).
  VersionId LatestVersion(FileId file);
  // A new version of `file` written by `producer` (kMasterTask for GS_Open).
  VersionId NewVersion(FileId file, TaskId producer);

  // Marks `v` written and returns the tasks that became ready.
  void MarkAvailable(VersionId v, std::vector<TaskId>* now_ready);
  // The task finished successfully: its outputs become available.
  void MarkDone(TaskId t, std::vector<TaskId>* now_ready);
  // The task failed for good: its outputs are lost and every task that
  // depends on them, transitively, becomes futile (appended to `futile`).
  void MarkFailed(TaskId t, std::vector<TaskId>* futile);

  // Tasks waiting for `v`: `t` is told by MarkAvailable (or made futile by
  // MarkFailed) when `v` is written or lost. Remove drops every entry of `t`.
  void AddWaiting(VersionId v, TaskId t) {
    wait_lists_.Append(&versions_[v].waiting, t);
  }
  void RemoveWaiting(VersionId v, TaskId t) {
    wait_lists_.Remove(&versions_[v].waiting, t);
  }
  std::vector<TaskId> waiting(VersionId v) const {
    return wait_lists_.Items(versions_[v].waiting);
  }

  // Adds or drops one reader of `v` (the master holding it open counts).
  void AddReader(VersionId v) { ++versions_[v].readers; }
  void ReleaseReader(VersionId v);

  // Versions whose data nobody can read any more (superseded, no readers
  // left, written, and not the user's own file). The caller deletes them.
  std::vector<VersionId> TakeGarbage();

  Task& task(TaskId t) { return tasks_[t]; }
  const Task& task(TaskId t) const { return tasks_[t]; }
  Version& version(VersionId v) { return versions_[v]; }
  const Version& version(VersionId v) const { return versions_[v]; }
  size_t num_tasks() const { return tasks_.size(); }
  size_t num_versions() const { return versions_.size(); }
  // The file parameters of `t`, in operation order.
  const FileAccess* accesses(TaskId t) const {
    return accesses_.data() + tasks_[t].first_file;
  }
  std::string_view scalars(TaskId t) const {
    return std::string_view(arena_).substr(tasks_[t].scalars_offset,
                                           tasks_[t].scalars_size);
  }
  FileTable& files() { return *files_; }
  const FileTable& files() const { return *files_; }

  // Approximate heap bytes held (for the submission benchmark).
  size_t MemoryUsage() const;
  // The part of it mapped outside the malloc heap: the tables' committed
  // memory (stable_array.h), which mallinfo does not see.
  size_t MappedBytes() const;

 private:
  FileTable* files_;
  // Grown in place (stable_array.h): a master submitting millions of tasks
  // neither copies them nor faults in every page twice.
  StableArray<Task> tasks_;
  StableArray<FileAccess> accesses_;
  StableArray<Version> versions_;
  WaitLists wait_lists_;
  std::string arena_;
  std::vector<VersionId> garbage_;

  void CheckGarbage(VersionId v);
  bool IsGarbage(VersionId v) const;
};

}  // namespace gs

#endif  // GSRT_RUNTIME_GRAPH_TASK_GRAPH_H_
