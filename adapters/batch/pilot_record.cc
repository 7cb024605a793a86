#include "adapters/batch/pilot_record.h"

#include <unistd.h>

#include <filesystem>
#include <sstream>

#include "adapters/batch/batch_evidence.h"
#include "adapters/batch/node/batch_job_runner.h"
#include "runtime/base/file_io.h"
#include "runtime/base/shell_quote.h"

namespace gs {

namespace fs = std::filesystem;

std::string PilotRecordText(const PilotRecord& record) {
  return record.batch_id + " " + record.job_name + "\n";
}

std::optional<PilotRecord> ParsePilotRecord(std::string_view name,
                                            std::string_view text) {
  std::istringstream in{std::string(text)};
  PilotRecord r;
  r.name = name;
  std::string rest;
  if (!(in >> r.batch_id >> r.job_name) || (in >> rest)) return std::nullopt;
  if (r.name.empty()) return std::nullopt;
  return r;
}

Status WritePilotRecord(const std::string& dir, const PilotRecord& record) {
  return WriteFileAtomically(dir + "/" + record.name + ".id",
                             PilotRecordText(record));
}

bool ScriptReadsTokenFile(std::string_view script,
                          std::string_view token_file) {
  // The script is one exec of a quoted argv (SubmitPilot): the option and
  // the path as ShellQuote spells it, then a space or the line's end.
  const std::string option = " --token-file " + ShellQuote(token_file);
  for (size_t at = script.find(option); at != std::string_view::npos;
       at = script.find(option, at + 1)) {
    const size_t after = at + option.size();
    if (after == script.size() || script[after] == ' ' ||
        script[after] == '\n') {
      return true;
    }
  }
  return false;
}

std::vector<PilotRecord> PilotsReadingTokenFiles(
    const std::string& dir, const std::vector<std::string>& token_files) {
  std::vector<PilotRecord> found;
  if (token_files.empty()) return found;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const fs::path path = e.path();
    if (path.extension() != ".sh") continue;
    auto script = ReadSmallFile(path.string());
    if (!script.ok()) continue;
    bool ours = false;
    for (const std::string& t : token_files) {
      ours = ours || ScriptReadsTokenFile(*script, t);
    }
    if (!ours) continue;
    const std::string name = path.stem().string();
    auto text = ReadSmallFile(dir + "/" + name + ".id");
    if (!text.ok()) continue;  // killed before the id was known
    if (auto r = ParsePilotRecord(name, *text)) found.push_back(*r);
  }
  return found;
}

void RemovePilotFiles(const std::string& dir, std::string_view name,
                      const std::string& evidence_workdir) {
  const std::string stem = dir + "/" + std::string(name);
  ::unlink((stem + ".sh").c_str());
  ::unlink((stem + ".id").c_str());
  if (evidence_workdir.empty()) {
    ::unlink((stem + ".out").c_str());
  } else {
    (void)KeepBatchOutput(evidence_workdir, stem + ".out",
                          std::string(name) + ".out");
  }
}

}  // namespace gs
