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
  DecodedCall(DecodedCall&&) = default;
  DecodedCall& operator=(DecodedCall&&) = default;

  std::vector<gs_arg> args;
  std::vector<ScalarSlot> slots;  // one per parameter
  ScalarSlot result;
};

// True for out/inout scalars, which the worker reports back.
bool IsReported(const gs_param_desc& param);

// Decodes one value per parameter of `op` (see scalar_codec.h): File ->
// path, in string -> raw bytes, in/inout scalar -> encoded value, out
// scalar -> ignored placeholder. File/string arguments point into `values`,
// which must outlive the call. Fails naming the operation and parameter.
Status DecodeCall(const gs_operation& op,
                  const std::vector<const char*>& values, DecodedCall* call);

// The result file: the return value (unless void), then every out/inout
// scalar in parameter order, one encoded value per line.
std::string EncodeResults(const gs_operation& op, const DecodedCall& call);

// The IDL signature: "void add(in File a, inout double acc)".
std::string OperationSignature(const gs_operation& op);

}  // namespace gs

#endif  // GSRT_RUNTIME_WORKER_WORKER_ARGS_H_
