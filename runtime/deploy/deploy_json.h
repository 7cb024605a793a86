// `gsdeploy rank --json`: the ranking as one JSON object. The schema is
// documented in docs/gsdeploy.md ("gsdeploy-rank/1"); a change that
// removes or retypes a field bumps the version.
#ifndef GSRT_RUNTIME_DEPLOY_DEPLOY_JSON_H_
#define GSRT_RUNTIME_DEPLOY_DEPLOY_JSON_H_

#include <string>

#include "runtime/deploy/deploy_rank.h"

namespace gs {

inline constexpr char kRankJsonSchema[] = "gsdeploy-rank/1";

// Pretty-printed (2-space indent), ending in a newline. `history` is the
// history file the figures came from.
std::string RankReportJson(const RankReport& report,
                           const std::string& history);

}  // namespace gs

#endif  // GSRT_RUNTIME_DEPLOY_DEPLOY_JSON_H_
