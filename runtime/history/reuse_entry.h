// Results that last across runs (docs/reuse.md): the pure side. A reuse
// entry is what a finished task leaves in the history's table
// reuse_results so that a later run of the same work dir, with reuse on,
// can put its outputs in place instead of running it. No I/O here.
//
// The key names what the task computes from what: the operation, its
// code's identity (its function's, or the whole worker's), the encoded
// scalar arguments, the content of every file it reads (SHA-256, never a
// date) and the user path of every file it writes. Inputs named by content
// make early cutoff. The call names the task without what it reads (the
// operation, the user paths it reads and writes): a task that must run is
// compared with the newest entry of its call to say why (ExplainMiss).
#ifndef GSRT_RUNTIME_HISTORY_REUSE_ENTRY_H_
#define GSRT_RUNTIME_HISTORY_REUSE_ENTRY_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/base/clock.h"
#include "runtime/base/status.h"
#include "runtime/history/history_records.h"
#include "runtime/jobs/job.h"

namespace gs {

// A file parameter the task reads.
struct ReuseInput {
  uint32_t param = 0;
  std::string path;      // the user's name for the file
  std::string identity;  // ContentId of the version read
};

// A file parameter the task writes, and where its bytes are kept.
struct ReuseOutput {
  uint32_t param = 0;
  std::string path;     // the user's name for the file
  std::string content;  // ContentId; the store's file name
  int64_t size = 0;
  // The stored file's modification time when it was stored: a store file
  // changed in place since (it is a hard link of the user's output) no
  // longer counts.
  int64_t mtime_ns = 0;
};

struct ReuseEntry {
  std::string key;   // ReuseKeyOf
  std::string call;  // ReuseCallOf
  std::string operation;
  std::string worker;  // its code: "f:..." the function's, "w:..." the worker's
  std::string scalars;  // the encoded scalar arguments, hashed
  std::vector<ReuseInput> inputs;
  std::vector<ReuseOutput> outputs;
  std::string results;  // encoded results of a synchronous operation
  RunId run = 0;        // the run that ran the task
  TaskId task = 0;
  Seconds finished = 0;
  Seconds last_used = 0;  // when a run last reused it (or made it)
};

// The identity of a file's bytes: "s:" + 32 hex digits of SHA-256 + ":" +
// the size. `sha256_hex` is the full or truncated hex digest.
std::string ContentId(std::string_view sha256_hex, uint64_t size);
// Whether `id` is a ContentId (and not "" or a placeholder).
bool IsContentId(std::string_view id);
// The input identity of a file that does not exist when the task reads it.
std::string AbsentFileId();
// 32 hex digits of SHA-256 of the encoded scalars ("" stays "").
std::string ScalarsId(std::string_view encoded_scalars);

// 32 hex digits over operation, worker, scalars, inputs (param, identity)
// and outputs (param, path); inputs and outputs in parameter order.
std::string ReuseKeyOf(const ReuseEntry& e);
// 32 hex digits over operation and the paths read and written.
std::string ReuseCallOf(const ReuseEntry& e);

// The `detail` column: inputs, outputs, scalars, worker and results as
// JSON. Decode fills those fields of `e`.
std::string EncodeReuseDetail(const ReuseEntry& e);
Status DecodeReuseDetail(std::string_view json, ReuseEntry* e);

// Why `now` could not reuse `before`, an entry of the same call: "the
// functions changed (the worker differs)", "the arguments differ", "input
// 'a.txt' changed", joined with "; ". "" when nothing differs.
std::string ExplainMiss(const ReuseEntry& before, const ReuseEntry& now);

}  // namespace gs

#endif  // GSRT_RUNTIME_HISTORY_REUSE_ENTRY_H_
