// A task's call as the user wrote it, for the summary of a failed task:
// `step(col0-0.txt, col0-1.txt, 1, 0, 2.5, "switches")`. Pure formatting.
#ifndef GSRT_RUNTIME_ENGINE_CALL_TEXT_H_
#define GSRT_RUNTIME_ENGINE_CALL_TEXT_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "gs/gs_abi.h"

namespace gs {

// Longest call text shown: enough for a few names and numbers.
constexpr size_t kMaxCallTextBytes = 200;

// `op`'s call with `scalars` (the task's encoded non-File arguments, one
// NUL-terminated entry each, as EncodeScalars writes them; `out` ones
// empty) and `files` (the user's name of each File parameter, in order).
// Numbers read as numbers, strings quoted, `out` scalars as `out NAME`;
// past `max_bytes` it is cut and ends with "...)".
std::string FormatCall(const gs_operation& op, std::string_view scalars,
                       const std::vector<std::string>& files,
                       size_t max_bytes = kMaxCallTextBytes);

}  // namespace gs

#endif  // GSRT_RUNTIME_ENGINE_CALL_TEXT_H_
