// An IDL operation made from fuzzer input: return type, up to six
// parameters of any type and direction the IDL parser accepts, except
// string results (string returns, out/inout strings): those are malloc'd
// `char*` variables the harnesses do not own; result_values_test and
// worker_args_test cover them.
#ifndef GSRT_FUZZ_FUZZ_OPERATION_H_
#define GSRT_FUZZ_FUZZ_OPERATION_H_

#include <string>
#include <vector>

#include "fuzz/fuzz_input.h"
#include "gs/gs_abi.h"

namespace gs::fuzz {

class FuzzOperation {
 public:
  explicit FuzzOperation(FuzzInput* input) {
    // Any type may be returned, File (the parser refuses it) and string
    // aside, and parameters are never void.
    static constexpr gs_type kReturns[] = {
        GS_TYPE_VOID, GS_TYPE_CHAR, GS_TYPE_BOOLEAN, GS_TYPE_SHORT,
        GS_TYPE_INT,  GS_TYPE_LONG, GS_TYPE_FLOAT,   GS_TYPE_DOUBLE};
    op_.name = "fuzzop";
    op_.return_type = kReturns[input->Byte() % 8];
    int n = input->Byte() % 7;
    names_.reserve(n);
    for (int k = 0; k < n; ++k) {
      uint8_t b = input->Byte();
      names_.push_back("p" + std::to_string(k));
      auto type = static_cast<gs_type>(GS_TYPE_FILE + b % 9);
      auto dir = static_cast<gs_dir>((b / 9) % 3);
      // Strings `in` only (see the top of this file).
      if (type == GS_TYPE_STRING) dir = GS_DIR_IN;
      params_.push_back(gs_param_desc{names_.back().c_str(), type, dir});
    }
    op_.num_params = n;
    op_.params = params_.data();
  }
  FuzzOperation(const FuzzOperation&) = delete;
  FuzzOperation& operator=(const FuzzOperation&) = delete;

  const gs_operation& op() const { return op_; }

 private:
  std::vector<std::string> names_;
  std::vector<gs_param_desc> params_;
  gs_operation op_{};
};

}  // namespace gs::fuzz

#endif  // GSRT_FUZZ_FUZZ_OPERATION_H_
