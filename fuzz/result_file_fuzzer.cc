// The master reading a worker's result file (one encoded value per line,
// return value first) into the caller's variables. Arbitrary text must be
// refused or stored without a crash; text the master accepts must, written
// back the way a worker writes it, be read back to the same values.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "fuzz/fuzz_check.h"
#include "fuzz/fuzz_input.h"
#include "fuzz/fuzz_operation.h"
#include "runtime/base/scalar_codec.h"
#include "runtime/engine/job_builder.h"

namespace {

// The caller's variables: one slot per parameter and the return value.
struct Variables {
  explicit Variables(const gs_operation& op)
      : slots(op.num_params), args(op.num_params) {
    for (int k = 0; k < op.num_params; ++k) {
      if (op.params[k].type != GS_TYPE_FILE &&
          op.params[k].type != GS_TYPE_STRING &&
          op.params[k].dir != GS_DIR_IN) {
        args[k].ptr = slots[k].bytes;
      }
    }
  }
  struct Slot {
    alignas(std::max_align_t) unsigned char bytes[16] = {};
  };
  std::vector<Slot> slots;
  std::vector<gs_arg> args;
  Slot result;
};

// What a worker would write for these variables.
std::string Encode(const gs_operation& op, const Variables& v) {
  std::string out;
  if (op.return_type != GS_TYPE_VOID) {
    out += gs::EncodeValue(op.return_type, v.result.bytes) + "\n";
  }
  for (int k = 0; k < op.num_params; ++k) {
    if (v.args[k].ptr) {
      out += gs::EncodeValue(op.params[k].type, v.args[k].ptr) + "\n";
    }
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  gs::fuzz::FuzzInput input(data, size);
  gs::fuzz::FuzzOperation fop(&input);
  const gs_operation& op = fop.op();
  std::string_view text = input.Rest();

  Variables first(op);
  gs::Status read =
      gs::DecodeResults(op, text, first.args.data(), first.result.bytes);
  if (!read.ok()) {
    GS_FUZZ_CHECK(read.message().find("fuzzop") != std::string::npos);
    return 0;
  }
  std::string written = Encode(op, first);
  Variables second(op);
  GS_FUZZ_CHECK(
      gs::DecodeResults(op, written, second.args.data(), second.result.bytes)
          .ok());
  GS_FUZZ_CHECK(Encode(op, second) == written);
  return 0;
}
