#include "runtime/config/reuse_mode.h"

#include <cctype>
#include <string>

namespace gs {

std::optional<ReuseMode> ParseReuseMode(std::string_view text) {
  std::string t;
  for (char c : text)
    t += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (t == "1" || t == "on" || t == "true" || t == "yes") return ReuseMode::kOn;
  if (t == "0" || t == "off" || t == "false" || t == "no")
    return ReuseMode::kOff;
  if (t == "explain") return ReuseMode::kExplain;
  return std::nullopt;
}

}  // namespace gs
