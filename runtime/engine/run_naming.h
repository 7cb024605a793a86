// What the user is told about tasks and files, in the program's own terms:
// the name the program knows a file by, a job's error with the program's
// file names in place of data-version paths, a task's call as the program
// made it, and why a synchronous call cannot return. Reads the graph, the
// operations and the data places; holds no state of its own. Owned by the
// Engine; every call is made with the engine's mutex held (what it reads
// is guarded by it).
#ifndef GSRT_RUNTIME_ENGINE_RUN_NAMING_H_
#define GSRT_RUNTIME_ENGINE_RUN_NAMING_H_

#include <string>
#include <utility>
#include <vector>

#include "runtime/engine/data_places.h"
#include "runtime/engine/run_stats.h"
#include "runtime/engine/sync_stop.h"
#include "runtime/engine/user_file_names.h"
#include "runtime/graph/file_table.h"
#include "runtime/graph/operation_table.h"
#include "runtime/graph/task_graph.h"
#include "runtime/jobs/job.h"

namespace gs {

class RunNaming {
 public:
  // `cwd`: the master's working directory, which names are relative to.
  // The references must outlive this object.
  RunNaming(const std::string& cwd, const FileTable& files,
            const TaskGraph& graph, const OperationTable& ops,
            const DataPlaces& data)
      : cwd_(cwd), files_(files), graph_(graph), ops_(ops), data_(data) {}
  RunNaming(const RunNaming&) = delete;
  RunNaming& operator=(const RunNaming&) = delete;

  // The name the program knows file `f` by (relative to its directory).
  std::string UserNameOf(FileId f) const;
  // Adds the paths of version `v` (on the master, on `host` unless
  // kNoHost, its data file name) with its user's name.
  void AddVersionNames(VersionId v, HostId host,
                       std::vector<PathName>* names) const;
  // The error of a job of `task` on `host` (its exit's error, its host's
  // failure) names its files as the program does; `replica_outputs` are
  // the paths a replica wrote beside them (dest -> final path).
  void NameUserFiles(
      TaskId task, HostId host,
      const std::vector<std::pair<std::string, std::string>>& replica_outputs,
      JobReport* report) const;
  // Task `t`'s call as the program made it, for the summary.
  std::string CallText(TaskId t) const;
  // Why synchronous call of task `t` (failed or not run) cannot return;
  // `failures`: the run's failed tasks (RunStats::failures).
  SyncStop SyncStopOf(TaskId t, const std::vector<TaskFailure>& failures) const;

 private:
  const std::string& cwd_;
  const FileTable& files_;
  const TaskGraph& graph_;
  const OperationTable& ops_;
  const DataPlaces& data_;
};

}  // namespace gs

#endif  // GSRT_RUNTIME_ENGINE_RUN_NAMING_H_
