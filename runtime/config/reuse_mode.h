// GSRT_REUSE: results that last across runs for one run (docs/reuse.md),
// over gsrt.yaml's runtime.reuse.
#ifndef GSRT_RUNTIME_CONFIG_REUSE_MODE_H_
#define GSRT_RUNTIME_CONFIG_REUSE_MODE_H_

#include <optional>
#include <string_view>

namespace gs {

enum class ReuseMode {
  kOff,
  kOn,
  kExplain,  // on, and each task that runs says why it could not be reused
};

// "1", "on", "true", "yes" -> kOn; "0", "off", "false", "no" -> kOff;
// "explain" -> kExplain (case-insensitive); nullopt otherwise.
std::optional<ReuseMode> ParseReuseMode(std::string_view text);

}  // namespace gs

#endif  // GSRT_RUNTIME_CONFIG_REUSE_MODE_H_
