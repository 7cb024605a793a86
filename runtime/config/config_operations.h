// The keys of gsrt.yaml named after an operation (`runtime.timeout: {OP:
// s}`, a sim host's `sim: {time.OP: s}`) checked against the operations
// the program's IDLs declare, so a typo is refused instead of silently
// never applying. Pure: the caller passes the names.
#ifndef GSRT_RUNTIME_CONFIG_CONFIG_OPERATIONS_H_
#define GSRT_RUNTIME_CONFIG_CONFIG_OPERATIONS_H_

#include <string>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/config/config.h"

namespace gs {

// Every per-operation key of `config` that names none of `operations`,
// one line each with its file and line, the operations there are and the
// closest one ("did you mean 'count'?"). Ok when all are known.
Status CheckOperationKeys(const Config& config,
                          const std::vector<std::string>& operations);

}  // namespace gs

#endif  // GSRT_RUNTIME_CONFIG_CONFIG_OPERATIONS_H_
