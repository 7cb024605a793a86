// Rules of a Config that span keys (duplicate host names, keys that do not
// fit the host's adapter, missing required keys). Pure: no files, no YAML.
// Messages start with config.source.Where(key) so they name file and line
// when the config came from a file.
#ifndef GSRT_RUNTIME_CONFIG_CONFIG_VALIDATE_H_
#define GSRT_RUNTIME_CONFIG_CONFIG_VALIDATE_H_

#include <string>
#include <string_view>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/config/config.h"

namespace gs {

// Checks `config` after ResolveConfig. All problems are reported at once,
// one per line. Rules about the key paths in `unread` (and under them),
// which parsing already refused, are not reported again.
Status ValidateConfig(const Config& config,
                      const std::vector<std::string>& unread = {});

// The names `runtime.policy` accepts, lower case.
const std::vector<std::string>& KnownPolicies();

// The keys a host may have when it uses `kind` (name, adapter, slots, ...
// are allowed for every kind).
const std::vector<std::string_view>& HostKeysFor(AdapterKind kind);
// Every key a host entry may have.
const std::vector<std::string_view>& AllHostKeys();

// The candidate closest to `word` (case-insensitive edit distance) if it is
// close enough to be a likely typo, else "".
std::string ClosestName(std::string_view word,
                        const std::vector<std::string_view>& candidates);

// "; did you mean 'slots'?" or "" (for appending to messages).
std::string DidYouMean(std::string_view word,
                       const std::vector<std::string_view>& candidates);

// How a message names a key path: "host 'n1', key 'slots'" for
// "hosts[0].slots" when host 0 is n1; "key 'runtime.retries.app'" else.
std::string DescribeKey(std::string_view path, const Config& config);

// True for names made of letters, digits, '.', '_' and '-', starting with
// a letter or digit (host names).
bool IsValidHostName(std::string_view name);
// True for C identifiers (operation names, environment variables).
bool IsIdentifier(std::string_view name);

}  // namespace gs

#endif  // GSRT_RUNTIME_CONFIG_CONFIG_VALIDATE_H_
