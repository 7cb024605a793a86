#include "adapters/agent/fetched_logs.h"

namespace gs {

namespace {

std::string Plain(std::string s) {
  for (char& c : s) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                       (c >= '0' && c <= '9') || c == '_' || c == '.' ||
                       c == '-';
    if (!plain) c = '_';
  }
  return s.empty() ? "_" : s;
}

}  // namespace

std::string FetchedLogsDir(const std::string& failed_dir,
                           const std::string& host,
                           const std::string& host_log_dir) {
  std::vector<std::string> parts;
  size_t begin = 0;
  while (begin <= host_log_dir.size()) {
    size_t end = host_log_dir.find('/', begin);
    if (end == std::string::npos) end = host_log_dir.size();
    std::string part = host_log_dir.substr(begin, end - begin);
    // "." or ".." would leave the host's directory.
    if (!part.empty())
      parts.push_back(part == "." || part == ".." ? "_" : part);
    begin = end + 1;
  }
  std::string out = failed_dir + "/" + Plain(host);
  const size_t first = parts.size() > 2 ? parts.size() - 2 : 0;
  for (size_t i = first; i < parts.size(); ++i) out += "/" + parts[i];
  return out;
}

bool CutToTail(std::string* data, uint64_t limit) {
  if (data->size() <= limit) return false;
  data->erase(0, data->size() - limit);
  return true;
}

std::string FetchedLogsNote(const FetchedLogs& logs) {
  const std::string host = "host '" + logs.host + "'";
  if (!logs.why_not.empty()) {
    return "still on " + host +
           (logs.unreachable ? ", which was unreachable" : "") +
           ": not fetched (" + logs.why_not + ")";
  }
  std::string note = "fetched from " + host + ": " + logs.host_dir;
  for (const std::string& name : logs.cut) {
    note += "; " + name + " cut to its last " +
            std::to_string(kFetchedLogBytes >> 10) + " KiB";
  }
  return note;
}

}  // namespace gs
