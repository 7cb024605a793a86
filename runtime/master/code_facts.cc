#include "runtime/master/code_facts.h"

#include <cinttypes>
#include <cstdio>
#include <set>

namespace gs {
namespace {

constexpr std::string_view kHeader = "gsrt-code-facts 1\n";

std::string DirectoryOf(const std::string& path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// Splits "word rest of line" at the first space.
bool Split(std::string_view line, std::string_view* word,
           std::string_view* rest) {
  size_t space = line.find(' ');
  if (space == std::string_view::npos) return false;
  *word = line.substr(0, space);
  *rest = line.substr(space + 1);
  return true;
}

}  // namespace

std::string FormatCodeFacts(const CodeFacts& f) {
  auto one_line = [](const std::string& s) {
    return s.find('\n') == std::string::npos;
  };
  if (!one_line(f.worker_path) || !one_line(f.ld_library_path)) return "";
  std::string text(kHeader);
  char number[64];
  std::snprintf(number, sizeof number, "%.6f", f.learnt);
  text += "learnt " + std::string(number) + "\n";
  text += "worker " + f.worker_path + "\n";
  text += "env " + f.ld_library_path + "\n";
  text += "whole " + f.whole + "\n";
  text += "libraries " + f.libraries + "\n";
  for (const CodeFacts::Source& s : f.sources) {
    if (!one_line(s.path)) return "";
    const FileStamp& st = s.stamp;
    char stamp[128];
    std::snprintf(stamp, sizeof stamp,
                  "%" PRId64 " %" PRId64 " %" PRId64 " %" PRIu64, st.size,
                  st.mtime_ns, st.ctime_ns, st.inode);
    text += "source " + std::string(stamp) + " " + s.path + "\n";
  }
  for (const auto& [op, id] : f.functions) {
    if (op.find_first_of(" \n") != std::string::npos || !one_line(id)) continue;
    text += "function " + op + " " + id + "\n";
  }
  return text;
}

bool ParseCodeFacts(std::string_view text, CodeFacts* f) {
  if (text.substr(0, kHeader.size()) != kHeader) return false;
  text.remove_prefix(kHeader.size());
  *f = CodeFacts();
  while (!text.empty()) {
    size_t eol = text.find('\n');
    if (eol == std::string_view::npos) return false;  // cut short
    std::string_view line = text.substr(0, eol);
    text.remove_prefix(eol + 1);
    std::string_view word, rest;
    if (!Split(line, &word, &rest)) return false;
    const std::string value(rest);
    if (word == "learnt") {
      if (std::sscanf(value.c_str(), "%lf", &f->learnt) != 1) return false;
    } else if (word == "worker") {
      f->worker_path = value;
    } else if (word == "env") {
      f->ld_library_path = value;
    } else if (word == "whole") {
      f->whole = value;
    } else if (word == "libraries") {
      f->libraries = value;
    } else if (word == "source") {
      CodeFacts::Source s;
      int used = 0;
      if (std::sscanf(value.c_str(),
                      "%" SCNd64 " %" SCNd64 " %" SCNd64 " %" SCNu64 " %n",
                      &s.stamp.size, &s.stamp.mtime_ns, &s.stamp.ctime_ns,
                      &s.stamp.inode, &used) != 4 ||
          used <= 0 || static_cast<size_t>(used) >= value.size()) {
        return false;
      }
      s.stamp.exists = true;
      s.path = value.substr(static_cast<size_t>(used));
      f->sources.push_back(std::move(s));
    } else if (word == "function") {
      std::string_view op, id;
      if (!Split(rest, &op, &id)) return false;
      f->functions[std::string(op)] = std::string(id);
    } else {
      return false;
    }
  }
  return !f->whole.empty() && !f->worker_path.empty() && !f->sources.empty();
}

bool CodeFactsHold(const CodeFacts& f, const std::string& worker_path,
                   const std::string& ld_library_path) {
  if (f.worker_path != worker_path || f.ld_library_path != ld_library_path)
    return false;
  for (const CodeFacts::Source& s : f.sources) {
    if (!StampStillHolds(s.stamp, f.learnt, StampOf(s.path, true)))
      return false;
  }
  return true;
}

std::vector<std::string> GuardDirectories(
    const std::string& worker_path, const std::vector<std::string>& libraries,
    const std::string& ld_library_path) {
  std::set<std::string> dirs = {"/etc", DirectoryOf(worker_path)};
  for (const std::string& library : libraries)
    dirs.insert(DirectoryOf(library));
  size_t start = 0;
  while (start <= ld_library_path.size()) {
    size_t end = ld_library_path.find_first_of(":;", start);
    if (end == std::string::npos) end = ld_library_path.size();
    if (end > start) dirs.insert(ld_library_path.substr(start, end - start));
    start = end + 1;
  }
  return {dirs.begin(), dirs.end()};
}

}  // namespace gs
