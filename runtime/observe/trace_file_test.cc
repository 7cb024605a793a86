#include "runtime/observe/trace_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace gs {
namespace {

namespace fs = std::filesystem;

std::string Slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class TraceFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = fs::temp_directory_path() /
            ("gsrt-trace-file-" + std::to_string(::getpid()) + ".json");
  }
  void TearDown() override { fs::remove(path_); }
  fs::path path_;
};

TEST_F(TraceFileTest, IsValidJsonAfterEveryFlush) {
  auto file = TraceFile::Create(path_.string());
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  auto parsed = nlohmann::json::parse(Slurp(path_));
  EXPECT_TRUE(parsed.at("traceEvents").empty());
  for (int round = 1; round <= 3; ++round) {
    for (int i = 0; i < round; ++i) {
      (*file)->Append(nlohmann::json{{"ph", "i"}, {"ts", i}}.dump());
    }
    ASSERT_TRUE((*file)->Flush().ok());
    // What a master killed now would leave.
    parsed = nlohmann::json::parse(Slurp(path_));
    EXPECT_EQ(parsed.at("traceEvents").size(),
              static_cast<size_t>(round * (round + 1) / 2));
  }
}

TEST_F(TraceFileTest, BufferedEventsReachTheFileWhenDestroyed) {
  {
    auto file = TraceFile::Create(path_.string());
    ASSERT_TRUE(file.ok());
    (*file)->Append(R"({"ph":"i","ts":1})");
  }
  EXPECT_EQ(nlohmann::json::parse(Slurp(path_)).at("traceEvents").size(), 1u);
}

TEST_F(TraceFileTest, IsPrivateToItsOwner) {
  auto file = TraceFile::Create(path_.string());
  ASSERT_TRUE(file.ok());
  struct stat st;
  ASSERT_EQ(stat(path_.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 077, 0u);
}

TEST_F(TraceFileTest, AMissingDirectoryIsNamed) {
  auto file = TraceFile::Create("/nonexistent-dir/t.json");
  ASSERT_FALSE(file.ok());
  EXPECT_NE(file.status().message().find("/nonexistent-dir/t.json"),
            std::string::npos);
}

}  // namespace
}  // namespace gs
