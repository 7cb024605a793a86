// The engine's private state for the task journal and for resuming an
// interrupted run (engine_resume.cc).
#ifndef GSRT_RUNTIME_ENGINE_ENGINE_JOURNAL_H_
#define GSRT_RUNTIME_ENGINE_ENGINE_JOURNAL_H_

#include <array>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "runtime/base/file_system.h"
#include "runtime/engine/engine.h"
#include "runtime/history/journal.h"

namespace gs {

struct Engine::Journal {
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
  // Batch jobs the interrupted runs queued for tasks they did not finish,
  // by QueuedJobKey (the newest run's when several), to take over; and
  // those to cancel (pilots, jobs no task of this run takes over).
  std::unordered_map<std::string, QueuedJobEntry> queued;
  std::vector<QueuedJobEntry> forget;
  // A commit of the batch jobs just submitted is posted (engine thread).
  bool queued_commit_posted = false;
  // Outputs left on other hosts by the interrupted runs and now present in
  // the master's data dir: host + '\n' + file -> the host it came from
  // (kNoHost when the master already held a copy).
  std::unordered_map<std::string, HostId> fetched;
};

// One batch of journal entries on its way to the history (WriteJournal):
// taken under the lock, hashed and stat'ed outside it.
struct Engine::JournalBatch {
  std::vector<Journal::Finished> finished;
  // Entries complete already (reused tasks), then one per finished task.
  std::vector<JournalEntry> entries;
  // Versions the master provides that the finished tasks read: their
  // paths, replaced by their identities once hashed.
  std::vector<std::pair<VersionId, std::string>> to_hash;
  // Per finished task, per output: the path to stat on the master ("" when
  // the output is on another host).
  std::vector<std::vector<std::string>> stat_paths;
};

// An output an interrupted run left on a host that does not share the
// master's files, to fetch into the master's data dir.
struct Engine::ResumeFetch {
  HostId host;
  std::string key, host_path, master_path;
};

}  // namespace gs

#endif  // GSRT_RUNTIME_ENGINE_ENGINE_JOURNAL_H_
