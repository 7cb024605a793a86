// Golden-file tests: every testdata/NAME.idl is generated in-process and
// compared byte for byte with testdata/NAME.h.golden,
// NAME-stubs.cc.golden, NAME-worker.cc.golden and NAME-binaries.cc.golden.
// After an intended change of the generated code, rewrite them with
//   GSRT_UPDATE_GOLDEN=1 ./emitters_test
// and review the diff.
#include "stubgen/emitters.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <set>

#include "stubgen/idl_parser.h"
#include "stubgen/output_files.h"
#include "stubgen/test_support.h"

namespace gs {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

const std::string kTestdata = GSRT_STUBGEN_TESTDATA;

std::vector<std::string> TestdataIdls() {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(kTestdata)) {
    if (entry.path().extension() == ".idl") {
      names.push_back(entry.path().filename().string());
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

bool UpdatingGoldens() {
  const char* v = std::getenv("GSRT_UPDATE_GOLDEN");
  return v && std::string(v) == "1";
}

std::vector<GeneratedFile> Generate(const std::string& idl_name) {
  std::string path = kTestdata + "/" + idl_name;
  StatusOr<std::string> text = ReadTextFile(path);
  EXPECT_TRUE(text.ok()) << text.status().message();
  if (!text.ok()) return {};
  StatusOr<Interface> iface = ParseIdl(*text, idl_name);
  EXPECT_TRUE(iface.ok()) << iface.status().message();
  StatusOr<EmitNames> names = OutputNames(path);
  EXPECT_TRUE(names.ok()) << names.status().message();
  if (!iface.ok() || !names.ok()) return {};
  return EmitAll(*iface, *names);
}

class GoldenTest : public ::testing::TestWithParam<std::string> {};

TEST_P(GoldenTest, GeneratedFilesMatchGoldens) {
  std::vector<GeneratedFile> files = Generate(GetParam());
  ASSERT_EQ(files.size(), 4u);
  for (const GeneratedFile& file : files) {
    std::string golden_path = kTestdata + "/" + file.name + ".golden";
    if (UpdatingGoldens()) {
      testing::WriteFile(golden_path, file.content);
      continue;
    }
    ASSERT_TRUE(fs::exists(golden_path))
        << golden_path << " is missing; run with GSRT_UPDATE_GOLDEN=1";
    EXPECT_EQ(file.content, testing::ReadFileOrEmpty(golden_path))
        << file.name << " differs from " << golden_path
        << "; if the change is intended, run with GSRT_UPDATE_GOLDEN=1";
  }
}

INSTANTIATE_TEST_SUITE_P(Testdata, GoldenTest,
                         ::testing::ValuesIn(TestdataIdls()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return info.param.substr(0, info.param.find('.'));
                         });

TEST(GoldenFilesTest, EveryGoldenBelongsToAnIdl) {
  std::set<std::string> expected;
  for (const std::string& idl : TestdataIdls()) {
    std::string base = idl.substr(0, idl.find('.'));
    for (const char* suffix :
         {".h", "-stubs.cc", "-worker.cc", "-binaries.cc"}) {
      expected.insert(base + suffix + ".golden");
    }
  }
  for (const auto& entry : fs::directory_iterator(kTestdata)) {
    if (entry.path().extension() == ".golden") {
      EXPECT_TRUE(expected.count(entry.path().filename().string()))
          << "stale golden file " << entry.path();
    }
  }
}

Interface OneOperation(Operation op) {
  Interface iface;
  iface.name = "t";
  iface.operations.push_back(std::move(op));
  return iface;
}

const EmitNames kNames{"t", "t.idl"};

TEST(EmittersTest, ZeroParameterOperationUsesVoidAndADummyArray) {
  Operation op;
  op.name = "tick";
  op.return_type = GS_TYPE_INT;
  Interface iface = OneOperation(op);
  EXPECT_THAT(EmitHeader(iface, kNames), HasSubstr("int tick(void);\n"));
  std::string stubs = EmitStubs(iface, kNames);
  EXPECT_THAT(stubs, HasSubstr("gs_op_tick = {\n    \"tick\", GS_TYPE_INT, 0, "
                               "nullptr, 0, 0, 0, nullptr, 0, 0, 0, 0};"));
  EXPECT_THAT(stubs, HasSubstr("  gs_arg gs_args[1] = {};\n"
                               "  int gs_result{};\n"
                               "  gs_call(&gs_op_tick, gs_args, &gs_result);\n"
                               "  return gs_result;\n"));
  EXPECT_THAT(stubs, Not(HasSubstr("gs_params_tick")));
  EXPECT_THAT(EmitWorker(iface, kNames),
              HasSubstr("static void tramp_tick(const gs_arg* /*a*/, void* "
                        "ret) {\n  *static_cast<int*>(ret) = tick();\n}\n"));
}

TEST(EmittersTest, LongParameterListsWrapOnePerLine) {
  Operation op;
  op.name = "transform";
  for (const char* n :
       {"first_input_file", "second_input_file", "third_input_file"}) {
    op.params.push_back({GS_DIR_IN, GS_TYPE_FILE, n});
  }
  std::string header = EmitHeader(OneOperation(op), kNames);
  EXPECT_THAT(header, HasSubstr("void transform(\n"
                                "    const char* first_input_file,\n"
                                "    const char* second_input_file,\n"
                                "    const char* third_input_file);\n"));
  for (const std::string& text : {header, EmitStubs(OneOperation(op), kNames),
                                  EmitWorker(OneOperation(op), kNames)}) {
    size_t start = 0;
    while (start < text.size()) {
      size_t end = text.find('\n', start);
      EXPECT_LE(end - start, 80u) << text.substr(start, end - start);
      start = end + 1;
    }
  }
}

TEST(EmittersTest, IncludeGuardAndIncludesFollowTheBaseName) {
  EmitNames names{"my-app+1", "my-app+1.idl"};
  Operation op;
  op.name = "f";
  std::string header = EmitHeader(OneOperation(op), names);
  EXPECT_THAT(header, HasSubstr("#ifndef GSRT_GENERATED_MY_APP_1_H_\n"));
  EXPECT_THAT(header, HasSubstr("from my-app+1.idl. Do not edit."));
  EXPECT_THAT(EmitStubs(OneOperation(op), names),
              HasSubstr("#include \"my-app+1.h\"\n"));
  std::vector<GeneratedFile> all = EmitAll(OneOperation(op), names);
  ASSERT_EQ(all.size(), 4u);
  EXPECT_EQ(all[0].name, "my-app+1.h");
  EXPECT_EQ(all[1].name, "my-app+1-stubs.cc");
  EXPECT_EQ(all[2].name, "my-app+1-worker.cc");
  EXPECT_EQ(all[3].name, "my-app+1-binaries.cc");
}

}  // namespace
}  // namespace gs
