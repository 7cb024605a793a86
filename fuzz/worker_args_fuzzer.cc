// The worker's side of a call: argv values decoded for an operation (and
// the scalar codec under them), then the result file written from what was
// decoded. Every scalar the codec accepts must re-encode to text that
// decodes to the same encoding.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "fuzz/fuzz_check.h"
#include "fuzz/fuzz_input.h"
#include "fuzz/fuzz_operation.h"
#include "runtime/base/scalar_codec.h"
#include "runtime/worker/worker_args.h"

namespace {

// Decode -> encode -> decode -> encode: the two encodings are equal.
void CheckScalar(gs_type type, std::string_view text) {
  gs::ScalarSlot first;
  if (!gs::DecodeValue(type, text, first.bytes)) return;
  std::string encoded = gs::EncodeValue(type, first.bytes);
  gs::ScalarSlot second;
  GS_FUZZ_CHECK(gs::DecodeValue(type, encoded, second.bytes));
  GS_FUZZ_CHECK(gs::EncodeValue(type, second.bytes) == encoded);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  gs::fuzz::FuzzInput input(data, size);
  gs::fuzz::FuzzOperation fop(&input);
  const gs_operation& op = fop.op();
  // argv strings: NUL-separated fields (argv cannot hold a NUL either).
  std::vector<std::string> texts;
  while (!input.empty() && texts.size() < 8) texts.emplace_back(input.Field());
  std::vector<const char*> values;
  for (const std::string& t : texts) values.push_back(t.c_str());

  for (const std::string& t : texts) {
    for (int type = GS_TYPE_CHAR; type <= GS_TYPE_DOUBLE; ++type) {
      CheckScalar(static_cast<gs_type>(type), t);
    }
  }

  gs::DecodedCall call;
  gs::Status decoded = gs::DecodeCall(op, values, &call);
  if (!decoded.ok()) {
    GS_FUZZ_CHECK(decoded.message().find("fuzzop") != std::string::npos);
    return 0;
  }
  GS_FUZZ_CHECK(call.args.size() == static_cast<size_t>(op.num_params));
  gs::StatusOr<std::string> encoded = gs::EncodeResults(op, call);
  if (!encoded.ok()) {  // an out string the (absent) function left NULL
    GS_FUZZ_CHECK(encoded.status().message().find("fuzzop") !=
                  std::string::npos);
    return 0;
  }
  const std::string& results = *encoded;
  size_t lines = 0;
  for (char c : results) lines += c == '\n';
  size_t reported = op.return_type != GS_TYPE_VOID;
  for (int k = 0; k < op.num_params; ++k) {
    reported += gs::IsReported(op.params[k]);
  }
  GS_FUZZ_CHECK(lines == reported);
  gs::OperationSignature(op);
  return 0;
}
