#include "sim/runner/scratch_dir.h"

#include <gtest/gtest.h>

#include <fstream>

#include "tests/support/temp_dir.h"

namespace gs {
namespace {

TEST(ScratchDirTest, GoesWithEverythingInIt) {
  TempDir base;
  std::string path;
  {
    auto dir = ScratchDir::Make(base.path(), "run");
    ASSERT_TRUE(dir.ok()) << dir.status().message();
    path = (*dir)->path();
    EXPECT_EQ(path.rfind(base.path() + "/run-", 0), 0u) << path;
    std::ofstream(path + "/file") << "x";
    EXPECT_TRUE(std::filesystem::exists(path + "/file"));
  }
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(ScratchDirTest, AMissingBaseIsNamed) {
  auto dir = ScratchDir::Make("/nonexistent/gsrt", "run");
  ASSERT_FALSE(dir.ok());
  EXPECT_NE(dir.status().message().find("/nonexistent/gsrt"),
            std::string::npos);
  EXPECT_NE(dir.status().message().find("TMPDIR"), std::string::npos);
}

}  // namespace
}  // namespace gs
