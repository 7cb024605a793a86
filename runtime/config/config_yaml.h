// YAML <-> Config. The only part of configuration loading that knows
// yaml-cpp. Parsing checks syntax, value types, enum spellings and unknown
// keys, and records where each key was (Config::source); machine-dependent
// defaults and cross-key rules come later (ResolveConfig, ValidateConfig).
#ifndef GSRT_RUNTIME_CONFIG_CONFIG_YAML_H_
#define GSRT_RUNTIME_CONFIG_CONFIG_YAML_H_

#include <string>
#include <string_view>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/config/config.h"

namespace gs {

// What parsing found: the config as far as it could be read, and every
// problem (each starting with "NAME:LINE:COL: ") with the key path it is
// about. A syntax error leaves nothing usable; any other error leaves the
// key at its default, so the later stages can still look for theirs.
struct ParsedYaml {
  Config config;
  bool usable = false;
  std::vector<std::string> errors;
  std::vector<std::string> failed_paths;
};
ParsedYaml ParseConfigYamlAll(std::string_view text,
                              std::string_view name_for_errors);

// Every problem found is reported, one per line, each starting with
// "NAME:LINE:COL: ".
StatusOr<Config> ParseConfigYaml(std::string_view text,
                                 std::string_view name_for_errors);

// YAML that ParseConfigYaml + ResolveConfig read back to an equal Config.
// Host keys that do not apply to a host's adapters are left out.
std::string ConfigToYaml(const Config& config);

}  // namespace gs

#endif  // GSRT_RUNTIME_CONFIG_CONFIG_YAML_H_
