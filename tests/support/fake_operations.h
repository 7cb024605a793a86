// The operations the engine tests submit to the scripted FakeAdapter (which
// writes, for each output, the operation, its scalars and its inputs'
// contents), and helpers that submit one call of each.
#ifndef GSRT_TESTS_SUPPORT_FAKE_OPERATIONS_H_
#define GSRT_TESTS_SUPPORT_FAKE_OPERATIONS_H_

#include "gs/gs_abi.h"
#include "runtime/engine/engine.h"

namespace gs::testing {

inline constexpr gs_param_desc kProduceParams[] = {
    {"out", GS_TYPE_FILE, GS_DIR_OUT}, {"n", GS_TYPE_INT, GS_DIR_IN}};
// produce(out File, in int n)
inline constexpr gs_operation kProduce = {"produce", GS_TYPE_VOID, 2,
                                          kProduceParams};

inline constexpr gs_param_desc kConsumeParams[] = {
    {"in", GS_TYPE_FILE, GS_DIR_IN}, {"out", GS_TYPE_FILE, GS_DIR_OUT}};
// consume(in File, out File)
inline constexpr gs_operation kConsume = {"consume", GS_TYPE_VOID, 2,
                                          kConsumeParams};

inline constexpr gs_param_desc kMeasureParams[] = {
    {"in", GS_TYPE_FILE, GS_DIR_IN}, {"count", GS_TYPE_INT, GS_DIR_OUT}};
// double measure(in File, out int count): a synchronous call.
inline constexpr gs_operation kMeasure = {"measure", GS_TYPE_DOUBLE, 2,
                                          kMeasureParams};

inline TaskId SubmitProduce(Engine& engine, const char* file, int n) {
  gs_arg args[2] = {};
  args[0].str = file;
  args[1].i = n;
  return engine.Submit(&kProduce, args);
}

inline TaskId SubmitConsume(Engine& engine, const char* in, const char* out) {
  gs_arg args[2] = {};
  args[0].str = in;
  args[1].str = out;
  return engine.Submit(&kConsume, args);
}

}  // namespace gs::testing

#endif  // GSRT_TESTS_SUPPORT_FAKE_OPERATIONS_H_
