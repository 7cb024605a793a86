#include "runtime/engine/user_file_names.h"

#include <algorithm>

namespace gs {

std::string WithUserNames(std::string_view text, std::vector<PathName> names) {
  std::erase_if(names, [](const PathName& p) { return p.path.empty(); });
  std::stable_sort(names.begin(), names.end(),
                   [](const PathName& a, const PathName& b) {
                     return a.path.size() > b.path.size();
                   });
  // One left-to-right pass: at each position the longest path that starts
  // there wins, and the output is never searched again.
  std::string out;
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    const PathName* hit = nullptr;
    for (const PathName& p : names) {
      if (text.compare(i, p.path.size(), p.path) == 0) {
        hit = &p;
        break;
      }
    }
    if (hit != nullptr) {
      out += hit->name;
      i += hit->path.size();
    } else {
      out += text[i++];
    }
  }
  return out;
}

std::string UserFileName(std::string_view cwd, std::string_view path) {
  if (cwd.empty()) return std::string(path);
  std::string prefix(cwd);
  if (prefix.back() != '/') prefix += '/';
  if (path.size() > prefix.size() && path.starts_with(prefix)) {
    return std::string(path.substr(prefix.size()));
  }
  return std::string(path);
}

}  // namespace gs
