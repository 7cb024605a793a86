#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "gs/gs.h"

namespace {

namespace fs = std::filesystem;

class SequentialTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/gs_sequential_test.XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

// As in a parallel run, writing into a directory that does not exist yet
// creates it (issue 13: GS_FOpen returned NULL here).
TEST_F(SequentialTest, WritingCreatesAMissingDirectory) {
  const std::string name = (dir_ / "missing/deeper/t.txt").string();
  FILE* f = GS_FOpen(name.c_str(), W);
  ASSERT_NE(f, nullptr);
  std::fputs("x", f);
  EXPECT_EQ(GS_FClose(f), 0);
  EXPECT_EQ(fs::file_size(name), 1u);

  const std::string other = (dir_ / "also/missing.txt").string();
  const int fd = GS_Open(other.c_str(), A);
  ASSERT_GE(fd, 0);
  EXPECT_EQ(GS_Close(fd), 0);
  EXPECT_TRUE(fs::exists(other));
}

TEST_F(SequentialTest, ReadingDoesNotCreateIt) {
  const std::string name = (dir_ / "absent/t.txt").string();
  EXPECT_EQ(GS_FOpen(name.c_str(), R), nullptr);
  EXPECT_FALSE(fs::exists(dir_ / "absent"));
}

}  // namespace
