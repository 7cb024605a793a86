#include "sim/experiments/etc_table.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "tests/support/temp_dir.h"

namespace gs {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

const std::string kData = GSRT_SIM_DATA;

struct Result {
  std::optional<int> stop;
  EtcTableOptions options;
  std::string out, err;
};

Result Parse(const std::vector<std::string>& args) {
  Result r;
  r.options.data_dir = "/default";
  std::ostringstream out, err;
  r.stop = ParseEtcTableArgs(args, &r.options, out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

TEST(EtcTableArgsTest, DataDirectory) {
  EXPECT_EQ(Parse({}).stop, std::nullopt);
  EXPECT_EQ(Parse({}).options.data_dir, "/default");
  EXPECT_EQ(Parse({"--data", "/d"}).options.data_dir, "/d");
  EXPECT_EQ(Parse({"--data=/e"}).options.data_dir, "/e");
}

TEST(EtcTableArgsTest, HelpAndMistakes) {
  Result help = Parse({"--help"});
  EXPECT_EQ(help.stop, 0);
  EXPECT_THAT(help.out, HasSubstr("--data"));
  EXPECT_THAT(help.out, HasSubstr("Exit codes"));
  for (const std::vector<std::string>& bad :
       std::vector<std::vector<std::string>>{{"--data"}, {"x"}, {"--nope"}}) {
    Result r = Parse(bad);
    EXPECT_EQ(r.stop, 2) << bad[0];
    EXPECT_THAT(r.err, StartsWith("etc_table: "));
  }
}

TEST(EtcTableTest, MissingDataIsExitOneNamingTheFile) {
  TempDir dir;
  std::ostringstream out, err;
  EXPECT_EQ(RunEtcTable({dir.path()}, out, err), 1);
  EXPECT_EQ(out.str(), "");  // no half table
  EXPECT_THAT(err.str(), StartsWith("etc_table: "));
  EXPECT_THAT(err.str(), HasSubstr(dir / "braun/u_c_hihi.0"));
}

// The paper's figures for u_c_lolo.0 as docs/experiments.md prints them,
// makespan table included.
TEST(EtcTableTest, TablesOfTheBraunInstances) {
  std::ostringstream out, err;
  ASSERT_EQ(RunEtcTable({kData}, out, err), 0) << err.str();
  const std::string text = out.str();
  EXPECT_THAT(text, HasSubstr("| u_c_lolo.0 | 1.8065E+04 / 1.8065E+04 | "
                              "2.8962E+04 / 2.8962E+04 | 6.3601E+03 / "
                              "6.3601E+03 | 1.0175E+04 / 1.0175E+04 | "
                              "279 / 145 |\n"));
  EXPECT_THAT(text,
              HasSubstr("| u_c_lolo.0 | 1.0000 / 1.0000 | 0.8119 / "
                        "0.8119 | 0.6980 / 0.6980 | 0.6568 / 0.6568 |\n"));
  EXPECT_THAT(text,
              HasSubstr("| u_c_lolo.0 | 39582.30 | 6360.05 | 5441.43 |\n"));
  EXPECT_EQ(err.str(), "");
}

}  // namespace
}  // namespace gs
