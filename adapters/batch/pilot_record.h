// What a master leaves beside each pilot's script so that the master
// started after it crashed can find the pilots still queued: NAME.id holds
// the pilot's batch id and the job name it is queued under. Together with
// the script, which names the token file the pilot reads, it tells which
// pilots were a dead master's (docs/design.md, "Pilots across a master
// crash").
#ifndef GSRT_ADAPTERS_BATCH_PILOT_RECORD_H_
#define GSRT_ADAPTERS_BATCH_PILOT_RECORD_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/base/status.h"

namespace gs {

struct PilotRecord {
  std::string name;      // NAME of NAME.sh, NAME.out, NAME.id
  std::string batch_id;  // as the queue's listing spells it
  std::string job_name;  // the batch job's name, to list it by
};

// NAME.id's text and its reading (nullopt for anything else: one line of
// two words).
std::string PilotRecordText(const PilotRecord& record);
std::optional<PilotRecord> ParsePilotRecord(std::string_view name,
                                            std::string_view text);

// Writes `dir`/NAME.id (mode 0600, whole or not at all).
Status WritePilotRecord(const std::string& dir, const PilotRecord& record);

// The pilots in `dir` whose script (NAME.sh) reads one of `token_files`
// (paths as written into the scripts) and that have a record. Files it
// cannot read are passed over.
std::vector<PilotRecord> PilotsReadingTokenFiles(
    const std::string& dir, const std::vector<std::string>& token_files);

// Whether a pilot script's text names `token_file` as its --token-file.
bool ScriptReadsTokenFile(std::string_view script, std::string_view token_file);

// Removes NAME.sh, NAME.id and NAME.out; a lost pilot's output may say
// why, so with an `evidence_workdir` it is kept there instead
// (KeepBatchOutput: failed/batch/NAME.out).
void RemovePilotFiles(const std::string& dir, std::string_view name,
                      const std::string& evidence_workdir);

}  // namespace gs

#endif  // GSRT_ADAPTERS_BATCH_PILOT_RECORD_H_
