// Arrays of scalars (`in int[8] a`, `out double[n] r`) between master and
// worker: the elements in the scalar codec's spelling, separated by commas
// ("1,2,3"), as one worker argument or one line of the result file. Their
// size is bounded so that a value always fits in one argv string; bigger
// data belongs in a File.
#ifndef GSRT_RUNTIME_BASE_ARRAY_CODEC_H_
#define GSRT_RUNTIME_BASE_ARRAY_CODEC_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "gs/gs_abi.h"
#include "runtime/base/status.h"

namespace gs {

// Most elements an array parameter may have.
constexpr size_t kMaxArrayElements = 1 << 14;
// Longest encoded array: Linux refuses a single argv string over 128 KiB.
constexpr size_t kMaxEncodedArrayBytes = 120 * 1024;

// True for array parameters (a fixed or a parameter-given length).
bool IsArrayParam(const gs_param_desc& param);

// The element count of array parameter `k` in a call: its fixed length or
// the value of its length parameter in `args`. Fails, naming the operation
// and the parameters, when that value is negative or over
// kMaxArrayElements.
StatusOr<size_t> ArrayLength(const gs_operation& op, int k, const gs_arg* args);

// "e0,e1,...": `n` elements of scalar `type` stored from `data`.
std::string EncodeArray(gs_type type, const void* data, size_t n);

// Reads exactly `n` elements into `data`. On failure says what is wrong
// ("expected 3 values, got 2", "value 2 'x' is not a int").
Status DecodeArray(gs_type type, std::string_view text, size_t n, void* data);

// "int[8]" or "double[n]": the IDL spelling of the parameter's type.
std::string ArrayTypeName(const gs_operation& op, const gs_param_desc& param);

}  // namespace gs

#endif  // GSRT_RUNTIME_BASE_ARRAY_CODEC_H_
