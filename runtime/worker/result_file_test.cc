#include "runtime/worker/result_file.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace gs {
namespace {

namespace fs = std::filesystem;

class ResultFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "gsrt-rf-XXXXXX");
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::string Read(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  }
  std::string dir_;
};

TEST_F(ResultFileTest, WritesAndReplacesLeavingNoTemporary) {
  std::string path = dir_ + "/result";
  ASSERT_TRUE(WriteFileAtomically(path, "1\n2\n").ok());
  EXPECT_EQ(Read(path), "1\n2\n");
  ASSERT_TRUE(WriteFileAtomically(path, "").ok());
  EXPECT_TRUE(fs::exists(path));
  EXPECT_EQ(Read(path), "");
  int entries = 0;
  for (const auto& e : fs::directory_iterator(dir_)) {
    (void)e;
    ++entries;
  }
  EXPECT_EQ(entries, 1);
}

TEST_F(ResultFileTest, MissingDirectoryIsAnIoErrorNamingThePath) {
  std::string path = dir_ + "/nope/result";
  Status s = WriteFileAtomically(path, "x");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), Status::Code::kIoError);
  EXPECT_NE(s.message().find(dir_ + "/nope/result.tmp."), std::string::npos)
      << s.message();
  EXPECT_NE(s.message().find("No such file or directory"), std::string::npos);
}

TEST_F(ResultFileTest, RenameOntoADirectoryFailsAndCleansUp) {
  std::string path = dir_ + "/taken";
  fs::create_directories(path + "/inside");
  Status s = WriteFileAtomically(path, "x");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("cannot rename"), std::string::npos);
  int entries = 0;
  for (const auto& e : fs::directory_iterator(dir_)) {
    (void)e;
    ++entries;
  }
  EXPECT_EQ(entries, 1);  // only the directory, no temporary left
}

}  // namespace
}  // namespace gs
