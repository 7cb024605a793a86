// The engine's private state for the task journal and for resuming an
// interrupted run (engine_resume.cc).
#ifndef GSRT_RUNTIME_ENGINE_ENGINE_JOURNAL_H_
#define GSRT_RUNTIME_ENGINE_ENGINE_JOURNAL_H_

#include <array>
#include <string>
#include <unordered_map>
#include <vector>

#include "runtime/engine/engine.h"
#include "runtime/history/journal.h"

namespace gs {

struct Engine::Journal {
  ~Journal();

  // A task that finished in this run, to journal outside the engine lock.
  struct Finished {
    TaskId task;
    HostId host;
    Seconds when;
    std::string results;  // copied now: the master takes them away
  };
  std::vector<Finished> finished;
  // Entries complete already (reused tasks), to write with the next batch.
  std::vector<JournalEntry> entries;
  // Memoised signatures (32 hex digits), by task; a first byte of 0 = not
  // computed yet. Fixed size: no allocation per task.
  std::vector<std::array<char, 32>> signatures;
  // Identities of versions the master provides, from their contents.
  std::unordered_map<VersionId, std::string> content_ids;

  // Collected versions whose data is deleted only once the journal entries
  // that made them garbage are committed: a crash in between must not
  // leave a journal that points at deleted inputs of unjournaled tasks.
  std::vector<VersionId> collected;

  // Resuming: the interrupted runs' entries, and which tasks were reused.
  bool resuming = false;
  std::vector<RunId> interrupted;  // newest first
  ResumeIndex index;
  std::vector<bool> reused;  // by task
  // Outputs left on other hosts by the interrupted runs and now present in
  // the master's data dir: host + '\n' + file -> the host it came from
  // (kNoHost when the master already held a copy).
  std::unordered_map<std::string, HostId> fetched;
  int lock_fd = -1;  // flock on work_dir/lock: one master per work dir
};

}  // namespace gs

#endif  // GSRT_RUNTIME_ENGINE_ENGINE_JOURNAL_H_
