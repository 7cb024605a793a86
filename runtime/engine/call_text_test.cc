#include "runtime/engine/call_text.h"

#include <gtest/gtest.h>

#include <string>

#include "runtime/base/scalar_codec.h"

namespace gs {
namespace {

const gs_param_desc kStepParams[] = {
    {"src", GS_TYPE_FILE, GS_DIR_IN},     {"dst", GS_TYPE_FILE, GS_DIR_OUT},
    {"level", GS_TYPE_INT, GS_DIR_IN},    {"scale", GS_TYPE_DOUBLE, GS_DIR_IN},
    {"tag", GS_TYPE_STRING, GS_DIR_IN},   {"count", GS_TYPE_LONG, GS_DIR_OUT},
    {"acc", GS_TYPE_DOUBLE, GS_DIR_INOUT}};
const gs_operation kStep = {"step", GS_TYPE_VOID, 7, kStepParams, 0, 0, 0};

// The scalars blob as EncodeScalars writes it.
std::string Blob(int level, double scale, const std::string& tag, double acc) {
  std::string blob;
  gs_arg a{};
  a.i = level;
  blob += EncodeArg(GS_TYPE_INT, a, false) + '\0';
  a.d = scale;
  blob += EncodeArg(GS_TYPE_DOUBLE, a, false) + '\0';
  blob += tag + '\0';
  blob += '\0';  // out count
  blob += EncodeValue(GS_TYPE_DOUBLE, &acc) + '\0';
  return blob;
}

TEST(CallTextTest, ShowsFilesByNameAndScalarsAsPeopleReadThem) {
  EXPECT_EQ(FormatCall(kStep, Blob(3, 2.5, "switches", 0.125),
                       {"col0-0.txt", "out/col0-1.txt"}),
            "step(col0-0.txt, out/col0-1.txt, 3, 2.5, \"switches\", "
            "out count, 0.125)");
}

TEST(CallTextTest, StringsAreQuotedEscapedAndBounded) {
  std::string tag = "a \"b\"\n" + std::string(100, 'x');
  std::string text = FormatCall(kStep, Blob(1, 1, tag, 0), {"a", "b"});
  EXPECT_NE(text.find("\"a \\\"b\\\"\\x0axxx"), std::string::npos) << text;
  EXPECT_NE(text.find("xxx...\""), std::string::npos) << text;
  EXPECT_EQ(text.find('\n'), std::string::npos) << text;
}

TEST(CallTextTest, LongCallsAreCut) {
  std::string name(300, 'n');
  std::string text = FormatCall(kStep, Blob(1, 1, "t", 0), {name, name});
  EXPECT_EQ(text.size(), kMaxCallTextBytes);
  EXPECT_EQ(text.substr(0, 6), "step(n");
  EXPECT_EQ(text.substr(text.size() - 4), "...)");
}

TEST(CallTextTest, CharsAndBooleansReadAsTheirValues) {
  const gs_param_desc params[] = {{"c", GS_TYPE_CHAR, GS_DIR_IN},
                                  {"b", GS_TYPE_BOOLEAN, GS_DIR_IN}};
  const gs_operation op = {"flag", GS_TYPE_INT, 2, params, 0, 0, 0};
  gs_arg c{}, b{};
  c.i = 'q';
  b.i = 1;
  std::string blob = EncodeArg(GS_TYPE_CHAR, c, false) + '\0' +
                     EncodeArg(GS_TYPE_BOOLEAN, b, false) + '\0';
  EXPECT_EQ(FormatCall(op, blob, {}), "flag('q', true)");
}

}  // namespace
}  // namespace gs
