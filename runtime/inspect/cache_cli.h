// `gsrt cache list|show|clear|gc`: the results that last across runs
// (docs/reuse.md): the reuse entries of the history and the work dir's
// store of the files they name.
#ifndef GSRT_RUNTIME_INSPECT_CACHE_CLI_H_
#define GSRT_RUNTIME_INSPECT_CACHE_CLI_H_

#include <ostream>
#include <string>

#include "runtime/config/config.h"

namespace CLI {
class App;
}  // namespace CLI

namespace gs {

struct CacheArgs {
  std::string history;  // default: runtime.history
  std::string store;    // default: runtime.work_dir + "/store"
  std::string entry;    // show: a key prefix, or RUN:TASK
  std::string limit;    // gc: a size (default: runtime.reuse_limit)
  bool json = false;
  CLI::App* list = nullptr;
  CLI::App* show = nullptr;
  CLI::App* clear = nullptr;
  CLI::App* gc = nullptr;
};

// Adds `cache` and its subcommands to `app`; returns `cache`.
CLI::App* AddCacheCommand(CLI::App& app, CacheArgs* a);

// Runs the parsed subcommand; the exit code (0, kBadCommandLine, or
// kGsrtHistoryError when the history cannot be read).
int RunCache(const CacheArgs& a, const ConfigEnv& env, std::ostream& out,
             std::ostream& err);

}  // namespace gs

#endif  // GSRT_RUNTIME_INSPECT_CACHE_CLI_H_
