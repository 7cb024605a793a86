// YAML <-> Config. The only part of configuration loading that knows
// yaml-cpp. Parsing checks syntax, value types, enum spellings and unknown
// keys, and records where each key was (Config::source); machine-dependent
// defaults and cross-key rules come later (ResolveConfig, ValidateConfig).
#ifndef GSRT_RUNTIME_CONFIG_CONFIG_YAML_H_
#define GSRT_RUNTIME_CONFIG_CONFIG_YAML_H_

#include <string>
#include <string_view>

#include "runtime/base/status.h"
#include "runtime/config/config.h"

namespace gs {

// Every problem found is reported, one per line, each starting with
// "NAME:LINE:COL: ".
StatusOr<Config> ParseConfigYaml(std::string_view text,
                                 std::string_view name_for_errors);

// YAML that ParseConfigYaml + ResolveConfig read back to an equal Config.
// Host keys that do not apply to a host's adapters are left out.
std::string ConfigToYaml(const Config& config);

}  // namespace gs

#endif  // GSRT_RUNTIME_CONFIG_CONFIG_YAML_H_
