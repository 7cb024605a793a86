#include "runtime/history/journal.h"

#include <cinttypes>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "runtime/base/sha256.h"

namespace gs {

namespace {

// Length-prefixed, so no choice of names can make two signatures' texts
// equal.
void AppendPart(std::string* text, std::string_view part) {
  *text += std::to_string(part.size());
  *text += ':';
  *text += part;
}

std::string WriterKey(const JournalOutput& o) { return o.host + '\n' + o.file; }

}  // namespace

SignatureBuilder::SignatureBuilder(std::string_view operation,
                                   std::string_view scalars) {
  text_ = "gsrt-task-v1;";
  AppendPart(&text_, operation);
  AppendPart(&text_, scalars);
}

void SignatureBuilder::AddFile(uint32_t position, std::string_view input,
                               std::string_view output_path) {
  text_ += 'f';
  text_ += std::to_string(position);
  text_ += input.empty() ? '-' : 'r';
  AppendPart(&text_, input);
  text_ += output_path.empty() ? '-' : 'w';
  AppendPart(&text_, output_path);
}

std::string SignatureBuilder::Finish() const {
  return Sha256::HexOf(text_).substr(0, 32);
}

std::string ProducedVersionId(std::string_view signature, uint32_t position) {
  return "t:" + std::string(signature) + ":" + std::to_string(position);
}

std::string QueuedJobKey(std::string_view signature,
                         const std::vector<std::string>& outputs) {
  // Newlines never occur in signatures (hex) or version file names.
  std::string key(signature);
  for (const std::string& o : outputs) key += '\n' + o;
  return key;
}

std::string ContentVersionId(uint64_t content_hash, uint64_t size) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "c:%016" PRIx64 ":%" PRIu64, content_hash,
                size);
  return buf;
}

std::string MissingFileVersionId() { return "c:missing"; }

std::string EncodeJournalOutputs(const JournalEntry& entry) {
  nlohmann::json outputs = nlohmann::json::array();
  for (const JournalOutput& o : entry.outputs) {
    nlohmann::json j = {{"param", o.param},
                        {"file", o.file},
                        {"host", o.host},
                        {"size", o.size}};
    if (o.mtime_ns != 0) j["mtime_ns"] = o.mtime_ns;
    if (o.inode != 0) j["inode"] = o.inode;
    if (o.gone) j["gone"] = true;
    outputs.push_back(std::move(j));
  }
  nlohmann::json doc = {{"outputs", std::move(outputs)}};
  if (!entry.results.empty()) doc["results"] = entry.results;
  if (entry.reused_from != 0) doc["reused_from"] = entry.reused_from;
  if (!entry.worker.empty()) doc["worker"] = entry.worker;
  // Results are worker text; replace what is not UTF-8 rather than throw.
  return doc.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

Status DecodeJournalOutputs(std::string_view json, JournalEntry* entry) {
  nlohmann::json doc = nlohmann::json::parse(json, nullptr, false);
  auto bad = [&](const char* why) {
    return Status::InvalidArgument("task_journal entry of task " +
                                   std::to_string(entry->task) + " in run " +
                                   std::to_string(entry->run) + ": " + why);
  };
  if (doc.is_discarded()) return bad("outputs is not JSON");
  // Schema version 1 documented an array of outputs; accept it too.
  const nlohmann::json* outputs = &doc;
  if (doc.is_object()) {
    auto it = doc.find("outputs");
    if (it == doc.end()) return bad("no \"outputs\"");
    outputs = &*it;
    if (auto r = doc.find("results"); r != doc.end() && r->is_string())
      entry->results = r->get<std::string>();
    if (auto r = doc.find("reused_from");
        r != doc.end() && r->is_number_integer())
      entry->reused_from = r->get<RunId>();
    if (auto w = doc.find("worker"); w != doc.end() && w->is_string())
      entry->worker = w->get<std::string>();
  }
  if (!outputs->is_array()) return bad("\"outputs\" is not an array");
  entry->outputs.clear();
  for (const nlohmann::json& j : *outputs) {
    if (!j.is_object() || !j.contains("param") || !j.contains("file") ||
        !j["param"].is_number_unsigned() || !j["file"].is_string()) {
      return bad("an output lacks \"param\" or \"file\"");
    }
    JournalOutput o;
    o.param = j["param"].get<uint32_t>();
    o.file = j["file"].get<std::string>();
    o.host = j.value("host", std::string());
    o.size = j.value("size", int64_t{-1});
    o.mtime_ns = j.value("mtime_ns", int64_t{0});
    o.inode = j.value("inode", uint64_t{0});
    o.gone = j.value("gone", false);
    entry->outputs.push_back(std::move(o));
  }
  return Status::Ok();
}

bool SameOutput(const JournalOutput& recorded, const FileFacts& found) {
  if (recorded.gone || !found.exists) return false;
  if (recorded.size >= 0 && recorded.size != found.size) return false;
  if (recorded.mtime_ns != 0 && recorded.mtime_ns != found.mtime_ns)
    return false;
  if (recorded.inode != 0 && recorded.inode != found.inode) return false;
  return true;
}

void ResumeIndex::AddRun(std::vector<JournalEntry> entries) {
  // Files this run wrote, applied after the run is read so that its own
  // entries do not shadow each other.
  std::vector<std::pair<std::string, std::string>> written;
  for (JournalEntry& e : entries) {
    bool shadowed = false;
    for (const JournalOutput& o : e.outputs) {
      auto w = writer_.find(WriterKey(o));
      if (w != writer_.end() && w->second != e.signature) shadowed = true;
    }
    auto& list = by_signature_[e.signature];
    for (const JournalEntry& newer : list) {
      if (newer.outputs.size() != e.outputs.size()) continue;
      bool same = true;
      for (size_t i = 0; i < e.outputs.size() && same; ++i)
        same = newer.outputs[i].file == e.outputs[i].file;
      shadowed |= same;
    }
    if (shadowed) {
      if (list.empty()) by_signature_.erase(e.signature);
      continue;
    }
    for (const JournalOutput& o : e.outputs)
      written.emplace_back(WriterKey(o), e.signature);
    list.push_back(std::move(e));
    ++size_;
  }
  for (auto& [key, sig] : written) writer_.emplace(key, sig);
}

const JournalEntry* ResumeIndex::Find(
    std::string_view signature,
    const std::vector<std::string>& output_files) const {
  auto it = by_signature_.find(signature);
  if (it == by_signature_.end()) return nullptr;
  for (const JournalEntry& e : it->second) {
    if (e.outputs.size() != output_files.size()) continue;
    bool same = true;
    for (size_t i = 0; i < output_files.size() && same; ++i)
      same = e.outputs[i].file == output_files[i];
    if (same) return &e;
  }
  return nullptr;
}

}  // namespace gs
