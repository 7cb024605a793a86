// The values a job hands back to its caller: the return value and every
// out/inout parameter that is not a File. The worker writes them to its
// result file, one line each, and the master reads them back; both sides
// use these functions, so they cannot disagree on which parameters are
// reported or how a value is spelled.
#ifndef GSRT_RUNTIME_BASE_RESULT_VALUES_H_
#define GSRT_RUNTIME_BASE_RESULT_VALUES_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "gs/gs_abi.h"

namespace gs {

// Longest string result kept: bigger results belong in a File.
constexpr size_t kMaxStringResultBytes = 1 << 20;

// True for the parameters whose value comes back: out/inout, not File.
bool IsResultParam(const gs_param_desc& param);

// One line of the result file for the variable of `type` at `ptr` (for a
// string, a `char*` variable). Strings are escaped (\\ \n \r) so that they
// stay on one line; scalars are spelled as scalar_codec does.
std::string EncodeResultLine(gs_type type, const void* ptr);

// Reads a line written by EncodeResultLine into the variable at `ptr`. A
// string variable (`char*`) gets a malloc'd copy that its owner frees with
// free(); the string it held before is freed first. False on a malformed
// line.
bool DecodeResultLine(gs_type type, std::string_view line, void* ptr);

// Frees the string held by the `char*` variable at `slot` and stores a
// malloc'd copy of `text` there.
void StoreString(std::string_view text, void* slot);

}  // namespace gs

#endif  // GSRT_RUNTIME_BASE_RESULT_VALUES_H_
