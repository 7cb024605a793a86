// The logs of a job that failed on a host that does not share the master's
// files (an ssh host, a pilot) are fetched back into the master's evidence:
// the host keeps them in its failed/<session>/<name>, the master in
// `failed_dir`/<host>/<session>/<name>, so local and remote evidence look
// alike. Each log is its last kFetchedLogBytes at most. Pure: names and
// texts only; AgentAdapter fetches.
#ifndef GSRT_ADAPTERS_AGENT_FETCHED_LOGS_H_
#define GSRT_ADAPTERS_AGENT_FETCHED_LOGS_H_

#include <cstdint>
#include <string>
#include <vector>

namespace gs {

inline constexpr uint64_t kFetchedLogBytes = 64u << 10;
// The logs of a sandbox (SandboxPool::kStdout, kStderr).
inline constexpr const char* kFetchedLogs[] = {"stdout", "stderr"};

// `failed_dir`/HOST/SESSION/NAME for `host_log_dir` ".../SESSION/NAME" on
// the host; characters of `host` other than [A-Za-z0-9_.-] become '_'.
std::string FetchedLogsDir(const std::string& failed_dir,
                           const std::string& host,
                           const std::string& host_log_dir);

// Keeps the last `limit` bytes of `*data`; true when it cut something.
bool CutToTail(std::string* data, uint64_t limit);

// What happened to the logs of one failed job.
struct FetchedLogs {
  std::string host;
  std::string host_dir;          // where they are on the host
  std::vector<std::string> cut;  // logs cut to their last kFetchedLogBytes
  bool unreachable = false;      // the host did not answer
  std::string why_not;           // why they were not fetched; "" if they were
};

// For the failure's message, after "logs in DIR": "fetched from host 'n2':
// PATH; stderr cut to its last 64 KiB", or "still on host 'n2', which was
// unreachable: not fetched (WHY)".
std::string FetchedLogsNote(const FetchedLogs& logs);

}  // namespace gs

#endif  // GSRT_ADAPTERS_AGENT_FETCHED_LOGS_H_
