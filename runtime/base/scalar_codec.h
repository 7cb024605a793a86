// Text encoding of scalar values between master and worker. Integers in
// decimal, floating point in hexadecimal (%a) so values round-trip exactly,
// char as its numeric code, boolean as 0/1, strings as their bytes. Used in
// worker argv and in the worker's result file (one value per line).
#ifndef GSRT_RUNTIME_BASE_SCALAR_CODEC_H_
#define GSRT_RUNTIME_BASE_SCALAR_CODEC_H_

#include <string>
#include <string_view>

#include "gs/gs_abi.h"

namespace gs {

// Encodes the `in`/`inout` value of an argument: `arg.i`/`arg.d`/`arg.str`
// for `in`, `*arg.ptr` for `inout` (by_pointer).
std::string EncodeArg(gs_type type, const gs_arg& arg, bool by_pointer);

// Encodes the value stored at `ptr` (a variable of `type`).
std::string EncodeValue(gs_type type, const void* ptr);

// Parses `text` into the variable of `type` at `ptr`. False when `text` is
// not a valid encoding of `type`.
bool DecodeValue(gs_type type, std::string_view text, void* ptr);

// Size in bytes of a variable of scalar `type` (0 for File/string/void).
size_t ScalarSize(gs_type type);

// IDL spelling of a type ("File", "int", ...).
const char* TypeName(gs_type type);

}  // namespace gs

#endif  // GSRT_RUNTIME_BASE_SCALAR_CODEC_H_
