#include "runtime/history/reuse_entry.h"

#include <nlohmann/json.hpp>

#include "runtime/base/sha256.h"

namespace gs {

namespace {

// Length-prefixed, so no choice of names can make two texts equal.
void AppendReusePart(std::string* text, std::string_view part) {
  *text += std::to_string(part.size());
  *text += ':';
  *text += part;
}

std::string ReuseHex32(std::string_view text) {
  return Sha256::HexOf(text).substr(0, 32);
}

}  // namespace

std::string ContentId(std::string_view sha256_hex, uint64_t size) {
  return "s:" + std::string(sha256_hex.substr(0, 32)) + ":" +
         std::to_string(size);
}

bool IsContentId(std::string_view id) {
  if (id.size() < 36 || id.substr(0, 2) != "s:" || id[34] != ':') return false;
  for (char c : id.substr(2, 32)) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  for (char c : id.substr(35)) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

std::string AbsentFileId() { return "s:absent"; }

std::string ScalarsId(std::string_view encoded_scalars) {
  return encoded_scalars.empty() ? "" : ReuseHex32(encoded_scalars);
}

std::string ReuseKeyOf(const ReuseEntry& e) {
  std::string text = "gsrt-reuse-v1;";
  AppendReusePart(&text, e.operation);
  AppendReusePart(&text, e.worker);
  AppendReusePart(&text, e.scalars);
  for (const ReuseInput& in : e.inputs) {
    text += 'r' + std::to_string(in.param);
    AppendReusePart(&text, in.identity);
  }
  for (const ReuseOutput& out : e.outputs) {
    text += 'w' + std::to_string(out.param);
    AppendReusePart(&text, out.path);
  }
  return ReuseHex32(text);
}

std::string ReuseCallOf(const ReuseEntry& e) {
  std::string text = "gsrt-call-v1;";
  AppendReusePart(&text, e.operation);
  for (const ReuseInput& in : e.inputs) {
    text += 'r' + std::to_string(in.param);
    AppendReusePart(&text, in.path);
  }
  for (const ReuseOutput& out : e.outputs) {
    text += 'w' + std::to_string(out.param);
    AppendReusePart(&text, out.path);
  }
  return ReuseHex32(text);
}

std::string EncodeReuseDetail(const ReuseEntry& e) {
  nlohmann::json inputs = nlohmann::json::array();
  for (const ReuseInput& in : e.inputs) {
    inputs.push_back(
        {{"param", in.param}, {"path", in.path}, {"id", in.identity}});
  }
  nlohmann::json outputs = nlohmann::json::array();
  for (const ReuseOutput& out : e.outputs) {
    outputs.push_back({{"param", out.param},
                       {"path", out.path},
                       {"content", out.content},
                       {"size", out.size},
                       {"mtime_ns", out.mtime_ns}});
  }
  nlohmann::json doc = {{"inputs", std::move(inputs)},
                        {"outputs", std::move(outputs)},
                        {"worker", e.worker},
                        {"scalars", e.scalars}};
  if (!e.results.empty()) doc["results"] = e.results;
  // Paths and results are the user's text: replace what is not UTF-8.
  return doc.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

Status DecodeReuseDetail(std::string_view json, ReuseEntry* e) {
  nlohmann::json doc = nlohmann::json::parse(json, nullptr, false);
  auto bad = [&](const char* why) {
    return Status::InvalidArgument("reuse entry " + e->key + ": " + why);
  };
  if (doc.is_discarded() || !doc.is_object()) return bad("detail is not JSON");
  auto inputs = doc.find("inputs");
  auto outputs = doc.find("outputs");
  if (inputs == doc.end() || !inputs->is_array() || outputs == doc.end() ||
      !outputs->is_array()) {
    return bad("no \"inputs\" or \"outputs\" array");
  }
  e->inputs.clear();
  e->outputs.clear();
  for (const nlohmann::json& j : *inputs) {
    if (!j.is_object() || !j.contains("param") ||
        !j["param"].is_number_unsigned())
      return bad("an input lacks \"param\"");
    ReuseInput in;
    in.param = j["param"].get<uint32_t>();
    in.path = j.value("path", std::string());
    in.identity = j.value("id", std::string());
    e->inputs.push_back(std::move(in));
  }
  for (const nlohmann::json& j : *outputs) {
    if (!j.is_object() || !j.contains("param") ||
        !j["param"].is_number_unsigned() || !j.contains("content") ||
        !j["content"].is_string())
      return bad("an output lacks \"param\" or \"content\"");
    ReuseOutput out;
    out.param = j["param"].get<uint32_t>();
    out.path = j.value("path", std::string());
    out.content = j["content"].get<std::string>();
    out.size = j.value("size", int64_t{0});
    out.mtime_ns = j.value("mtime_ns", int64_t{0});
    e->outputs.push_back(std::move(out));
  }
  e->worker = doc.value("worker", std::string());
  e->scalars = doc.value("scalars", std::string());
  e->results = doc.value("results", std::string());
  return Status::Ok();
}

std::string ExplainMiss(const ReuseEntry& before, const ReuseEntry& now) {
  std::vector<std::string> why;
  if (before.worker != now.worker) {
    // "f:" identities are of one operation's code (function_identity.h),
    // "w:" of the whole worker.
    const bool both_functions =
        before.worker.rfind("f:", 0) == 0 && now.worker.rfind("f:", 0) == 0;
    why.push_back(both_functions
                      ? "its function's code changed"
                      : "the functions changed (the worker differs)");
  }
  if (before.scalars != now.scalars) why.push_back("the arguments differ");
  for (const ReuseInput& in : now.inputs) {
    const ReuseInput* old = nullptr;
    for (const ReuseInput& b : before.inputs) {
      if (b.param == in.param) old = &b;
    }
    if (old == nullptr || old->identity == in.identity) continue;
    if (in.identity == AbsentFileId()) {
      why.push_back("input '" + in.path + "' is gone");
    } else if (old->identity == AbsentFileId()) {
      why.push_back("input '" + in.path + "' is new");
    } else {
      why.push_back("input '" + in.path + "' changed");
    }
  }
  std::string text;
  for (const std::string& w : why) text += (text.empty() ? "" : "; ") + w;
  return text;
}

}  // namespace gs
