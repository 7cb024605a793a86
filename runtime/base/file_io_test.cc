#include "runtime/base/file_io.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/support/temp_dir.h"
#include "tests/support/test_files.h"

namespace gs {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::StartsWith;

std::vector<std::string> Entries(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) {
    names.push_back(e.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

mode_t ModeOf(const std::string& path) {
  struct stat st {};
  EXPECT_EQ(::stat(path.c_str(), &st), 0) << path;
  return st.st_mode & 07777;
}

TEST(WriteFileAtomicallyTest, WritesAndReplacesLeavingNoTemporary) {
  TempDir dir;
  const std::string path = dir / "result";
  ASSERT_TRUE(WriteFileAtomically(path, "1\n2\n").ok());
  EXPECT_EQ(ReadText(path), "1\n2\n");
  ASSERT_TRUE(WriteFileAtomically(path, "", {.sync = false}).ok());
  EXPECT_EQ(ReadText(path), "");
  EXPECT_EQ(Entries(dir.path()), std::vector<std::string>{"result"});
}

TEST(WriteFileAtomicallyTest, ModeIsAppliedThroughTheUmask) {
  TempDir dir;
  const mode_t umask = ::umask(022);
  ASSERT_TRUE(WriteFileAtomically(dir / "private", "x", {.mode = 0600}).ok());
  ASSERT_TRUE(WriteFileAtomically(dir / "script", "x", {.mode = 0777}).ok());
  ::umask(umask);
  EXPECT_EQ(ModeOf(dir / "private"), 0600u);
  EXPECT_EQ(ModeOf(dir / "script"), 0755u);
}

TEST(WriteFileAtomicallyTest, MissingDirectoryIsAnIoErrorNamingThePath) {
  TempDir dir;
  Status s = WriteFileAtomically(dir / "nope/result", "x");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), Status::Code::kIoError);
  EXPECT_THAT(s.message(),
              StartsWith("cannot create " + (dir / "nope/result.gsrt-part-")));
  EXPECT_THAT(s.message(), HasSubstr("No such file or directory"));
}

TEST(WriteFileAtomicallyTest, RenameOntoADirectoryFailsAndCleansUp) {
  TempDir dir;
  fs::create_directories(dir / "taken/inside");
  Status s = WriteFileAtomically(dir / "taken", "x");
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(s.message(), HasSubstr("cannot rename"));
  EXPECT_THAT(s.message(), HasSubstr(" to " + (dir / "taken")));
  EXPECT_EQ(Entries(dir.path()), std::vector<std::string>{"taken"});
}

TEST(PendingFileTest, NothingIsVisibleBeforeCommit) {
  TempDir dir;
  WriteText(dir / "f", "old");
  auto file = PendingFile::Create(dir / "f");
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  ASSERT_TRUE(file->Append("new ").ok());
  ASSERT_TRUE(file->Append("content").ok());
  EXPECT_EQ(ReadText(dir / "f"), "old");
  EXPECT_EQ(fs::path(file->temp_path()).parent_path(), fs::path(dir.path()));
  ASSERT_TRUE(file->Commit().ok());
  EXPECT_EQ(ReadText(dir / "f"), "new content");
  EXPECT_EQ(Entries(dir.path()), std::vector<std::string>{"f"});
  EXPECT_EQ(file->Commit().code(), Status::Code::kFailedPrecondition);
}

TEST(PendingFileTest, DroppedOrDiscardedLeavesNothing) {
  TempDir dir;
  {
    auto file = PendingFile::Create(dir / "a");
    ASSERT_TRUE(file.ok());
    ASSERT_TRUE(file->Append("partial").ok());
    EXPECT_EQ(Entries(dir.path()).size(), 1u);
    // Moved: the new owner removes it, the old one must not fail.
    PendingFile moved = std::move(file).value();
    EXPECT_EQ(moved.path(), dir / "a");
  }
  auto file = PendingFile::Create(dir / "b");
  ASSERT_TRUE(file.ok());
  file->Discard();
  EXPECT_FALSE(file->Append("x").ok());
  EXPECT_TRUE(Entries(dir.path()).empty());
}

TEST(PendingFileTest, TwoAtOnceForOnePathHaveTheirOwnTemporaries) {
  TempDir dir;
  auto first = PendingFile::Create(dir / "f");
  auto second = PendingFile::Create(dir / "f");
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_NE(first->temp_path(), second->temp_path());
  ASSERT_TRUE(first->Append("1").ok());
  ASSERT_TRUE(second->Append("2").ok());
  ASSERT_TRUE(first->Commit().ok());
  ASSERT_TRUE(second->Commit().ok());
  EXPECT_EQ(ReadText(dir / "f"), "2");
}

TEST(CopyFileAtomicallyTest, CopiesAllBytes) {
  TempDir dir;
  std::string big(300000, '\0');
  for (size_t i = 0; i < big.size(); ++i) big[i] = static_cast<char>(i * 7);
  WriteText(dir / "src", big);
  WriteText(dir / "dst", "old");
  ASSERT_TRUE(
      CopyFileAtomically(dir / "src", dir / "dst", {.sync = false}).ok());
  EXPECT_EQ(ReadText(dir / "dst"), big);
  EXPECT_EQ(ReadText(dir / "src"), big);
}

TEST(CopyFileAtomicallyTest, MissingSourceLeavesTheDestinationAlone) {
  TempDir dir;
  WriteText(dir / "dst", "old");
  Status s = CopyFileAtomically(dir / "absent", dir / "dst");
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(s.message(), StartsWith("cannot read " + (dir / "absent")));
  EXPECT_EQ(ReadText(dir / "dst"), "old");
  EXPECT_EQ(Entries(dir.path()), std::vector<std::string>{"dst"});
}

}  // namespace
}  // namespace gs
