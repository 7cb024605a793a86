// The task journal's pure side: task signatures, the journal entry a
// finished task leaves in the history (table task_journal), and the
// matching a resumed run does against the entries of the runs that were
// interrupted. No I/O here: the engine (engine_resume.cc) stats and hashes
// files and hands the facts in.
//
// A signature names what a task computes, the way a build system's action
// key does: the operation, its encoded scalar arguments, the files it
// writes (their user paths) and, for every file it reads, the identity of
// the version read. A version the master provides (the user's file as it
// was, or one written through GS_Open) is identified by its content hash;
// a version an earlier task produced by that task's signature and the
// output's position, so intermediate files are never hashed.
#ifndef GSRT_RUNTIME_HISTORY_JOURNAL_H_
#define GSRT_RUNTIME_HISTORY_JOURNAL_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "runtime/base/clock.h"
#include "runtime/base/status.h"
#include "runtime/history/history_records.h"
#include "runtime/jobs/job.h"
#include "runtime/jobs/queued_job.h"

namespace gs {

// Incremental signature of one task: feed the parts in parameter order.
class SignatureBuilder {
 public:
  SignatureBuilder(std::string_view operation, std::string_view scalars);
  // File parameter `position` reads the version with identity `input`
  // (empty: it does not read) and writes `output_path` (empty: it does not
  // write).
  void AddFile(uint32_t position, std::string_view input,
               std::string_view output_path);
  // 32 lower-case hex digits (128 bits of SHA-256).
  std::string Finish() const;

 private:
  std::string text_;  // length-prefixed parts, hashed at the end
};

// The identity of the version written at file parameter `position` by the
// task with `signature`.
std::string ProducedVersionId(std::string_view signature, uint32_t position);
// The identity of a version the master provides, from its content.
std::string ContentVersionId(uint64_t content_hash, uint64_t size);
// A file the master names but that does not exist (yet).
std::string MissingFileVersionId();

// One output of a journaled task: where its data was left.
struct JournalOutput {
  uint32_t param = 0;  // file parameter position
  std::string file;    // version file name in a data dir ("12-c.txt")
  std::string host;    // "" = the master's data dir; else that host's
  int64_t size = -1;   // bytes; -1 = unknown
  // Master files only (0 = unknown): any rewrite changes them.
  int64_t mtime_ns = 0;
  uint64_t inode = 0;
  bool gone = false;  // its data was already gone when journaled
};

struct JournalEntry {
  RunId run = 0;
  TaskId task = 0;
  std::string signature;
  std::string operation;
  std::string host;  // where the task ran ("" for a reused task)
  Seconds finished = 0;
  std::vector<JournalOutput> outputs;
  std::string results;    // encoded results of a synchronous operation
  RunId reused_from = 0;  // the run whose outputs were adopted; 0 = ran
  // The identity of the worker that computed it (its binary's content):
  // an entry is reused only by a run with the same worker, so changed
  // functions run again. "" = unknown (entries before it was recorded).
  std::string worker;
};

// The `outputs` column: a JSON object
// {"outputs":[{"param":..,"file":..,"host":..,"size":..,"mtime_ns":..,
//   "inode":..,"gone":..}], "results":"..", "reused_from":N, "worker":".."}.
std::string EncodeJournalOutputs(const JournalEntry& entry);
// Fills outputs, results, reused_from and worker of `entry` from `json`.
Status DecodeJournalOutputs(std::string_view json, JournalEntry* entry);

// A batch job a run queued or took over (table batch_jobs): a run
// resuming it takes the job over instead of running its task again.
struct QueuedJobEntry {
  RunId run = 0;
  std::string host;
  QueuedJob job;
  std::string signature;             // of its task; "" for a pilot
  std::vector<std::string> outputs;  // version file names, parameter order
};

// What a resumed run finds a task's batch job by: the task's signature and
// output file names, as the journal matches finished tasks.
std::string QueuedJobKey(std::string_view signature,
                         const std::vector<std::string>& outputs);

// What a stat of a version file found.
struct FileFacts {
  bool exists = false;
  int64_t size = 0;
  int64_t mtime_ns = 0;
  uint64_t inode = 0;
};

// Whether `found` is the data `recorded` describes: same size, and for a
// master file the same modification time and inode (a later rewrite
// renames a new file into place, which changes both).
bool SameOutput(const JournalOutput& recorded, const FileFacts& found);

// The entries of the interrupted runs a resumed run may reuse.
class ResumeIndex {
 public:
  // Adds the entries of one run; call for the newest run first. An older
  // entry is dropped when a newer one has its signature and output files,
  // or when a newer entry of another signature wrote one of its files (the
  // file holds the newer data now).
  void AddRun(std::vector<JournalEntry> entries);

  // The entry for a task with `signature` whose outputs go to
  // `output_files` (version file names, in parameter order), or nullptr.
  const JournalEntry* Find(std::string_view signature,
                           const std::vector<std::string>& output_files) const;

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // Every entry, for fetching the outputs left on other hosts.
  template <typename F>
  void ForEach(F f) const {
    for (const auto& [sig, list] : by_signature_)
      for (const JournalEntry& e : list) f(e);
  }

 private:
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const {
      return std::hash<std::string_view>()(s);
    }
  };
  std::unordered_map<std::string, std::vector<JournalEntry>, Hash,
                     std::equal_to<>>
      by_signature_;
  // host + '\n' + file -> the signature of the newest entry writing it.
  std::unordered_map<std::string, std::string> writer_;
  size_t size_ = 0;
};

}  // namespace gs

#endif  // GSRT_RUNTIME_HISTORY_JOURNAL_H_
