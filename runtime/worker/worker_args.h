// Pure helpers of the worker program: turning the argv of
// `NAME-worker run OP RESULT ARG...` into gs_arg values for a trampoline,
// and the results of the call back into the text of the result file.
#ifndef GSRT_RUNTIME_WORKER_WORKER_ARGS_H_
#define GSRT_RUNTIME_WORKER_WORKER_ARGS_H_

#include <cstddef>
#include <string>
#include <vector>

#include "gs/gs_abi.h"
#include "runtime/base/status.h"

namespace gs {

// Storage for one scalar of any IDL type, zero-filled.
struct ScalarSlot {
  alignas(std::max_align_t) unsigned char bytes[16] = {};
};

// The arguments of one call, ready for a trampoline. out/inout scalars point
// into `slots` and the return value goes to `result`, so the object must
// stay where it is while the call runs (it can be moved, not copied).
struct DecodedCall {
  DecodedCall() = default;
  DecodedCall(const DecodedCall&) = delete;
  DecodedCall& operator=(const DecodedCall&) = delete;
  // The strings it owns go with it.
  DecodedCall(DecodedCall&& other) noexcept;
  DecodedCall& operator=(DecodedCall&& other) noexcept;
  // Frees the strings the out/inout string slots and a string return value
  // hold when the call is over, and a returned array (the function left
  // them malloc'd).
  ~DecodedCall();
  void FreeStrings();

  std::vector<gs_arg> args;
  std::vector<ScalarSlot> slots;  // one per parameter
  // The elements of each array parameter (empty for the others), in
  // doubles so that every scalar type is aligned, and their counts.
  std::vector<std::vector<double>> arrays;
  std::vector<size_t> array_lengths;
  ScalarSlot result;
  // Parameters whose slot holds a `char*` this call owns, and whether
  // `result` holds a pointer it owns: a string or, for `long[3] f(...)`, an
  // array (indexes, not pointers: the object may move).
  std::vector<size_t> owned_strings;
  bool owns_result = false;
};

// True for what the worker reports back: out/inout parameters that are not
// Files (result_values.h, shared with the master).
bool IsReported(const gs_param_desc& param);

// Decodes one value per parameter of `op` (see scalar_codec.h): File ->
// path, in string -> raw bytes, in/inout scalar -> encoded value, out
// scalar -> ignored placeholder, in/inout array -> "e0,e1,..." with as many
// elements as its length says (array_codec.h), out array -> placeholder
// (zero-filled elements). File/in string arguments point into
// `values`, which must outlive the call; an inout string gets a malloc'd
// copy the function may free or keep, an out string starts NULL. Fails
// naming the operation and parameter.
Status DecodeCall(const gs_operation& op,
                  const std::vector<const char*>& values, DecodedCall* call);

// The result file: the return value (unless void; a returned array as
// "e0,e1,..."), then every out/inout non-File parameter in order, one
// encoded value per line (result_values.h). Fails naming the parameter when
// the function left a string result NULL or longer than
// kMaxStringResultBytes, or returned a NULL array.
StatusOr<std::string> EncodeResults(const gs_operation& op,
                                    const DecodedCall& call);

// The IDL signature: "void add(in File a, inout double acc)".
std::string OperationSignature(const gs_operation& op);

}  // namespace gs

#endif  // GSRT_RUNTIME_WORKER_WORKER_ARGS_H_
