// The in-memory file system keeps the rules of the real one that the engine
// relies on (runtime/base/file_system_test.cc checks the real one).
#include "tests/support/mem_file_system.h"

#include <gtest/gtest.h>

namespace gs::testing {
namespace {

TEST(MemFileSystemTest, FilesGoOnlyIntoExistingDirectories) {
  MemFileSystem fs;
  EXPECT_FALSE(fs.WriteFile("/a/f", "x").ok());
  ASSERT_TRUE(fs.CreateDirs("/a/b").ok());
  EXPECT_TRUE(fs.IsDir("/a"));
  ASSERT_TRUE(fs.WriteFile("/a/f", "x").ok());
  EXPECT_EQ(fs.Contents("/a/f"), "x");
  EXPECT_FALSE(fs.Stat("/a/b").exists) << "a directory is not a file";
  EXPECT_FALSE(fs.Rename("/a/f", "/c/f").ok());
  EXPECT_FALSE(fs.CopyFile("/a/f", "/c/f").ok());
  EXPECT_FALSE(fs.CreateDirs("/a/f/g").ok()) << "under a file";
}

TEST(MemFileSystemTest, RenameReplacesAndKeepsTheMovedFilesIdentity) {
  MemFileSystem fs;
  fs.Put("/d/new", "new");
  fs.Put("/d/old", "old");
  FileInfo moved = fs.Stat("/d/new");
  ASSERT_TRUE(fs.Rename("/d/new", "/d/old").ok());
  EXPECT_FALSE(fs.Stat("/d/new").exists);
  EXPECT_EQ(fs.Contents("/d/old"), "new");
  EXPECT_EQ(fs.Stat("/d/old").inode, moved.inode);
  EXPECT_FALSE(fs.Rename("/d/new", "/d/x").ok());
}

TEST(MemFileSystemTest, StatAndReadSeeEachWrite) {
  MemFileSystem fs;
  fs.Put("/f", "abc");
  FileInfo first = fs.Stat("/f");
  EXPECT_EQ(first.size, 3u);
  ASSERT_TRUE(fs.WriteFile("/f", "abcdef").ok());
  FileInfo second = fs.Stat("/f");
  EXPECT_EQ(second.size, 6u);
  EXPECT_GT(second.mtime_ns, first.mtime_ns);
  std::string got;
  ASSERT_TRUE(fs.Read("/f", [&](std::string_view c) { got += c; }).ok());
  EXPECT_EQ(got, "abcdef");
  EXPECT_EQ(fs.Read("/g", [](std::string_view) {}).code(),
            Status::Code::kNotFound);
}

TEST(MemFileSystemTest, RemoveLeavesFullDirectoriesAndRemoveAllDoesNot) {
  MemFileSystem fs;
  fs.Put("/w/data/1-a", "x");
  EXPECT_TRUE(fs.Remove("/w/none").ok());
  EXPECT_FALSE(fs.Remove("/w/data").ok());
  EXPECT_TRUE(fs.Remove("/w/data/1-a").ok());
  EXPECT_TRUE(fs.Remove("/w/data").ok());
  EXPECT_FALSE(fs.IsDir("/w/data"));
  fs.Put("/w/data/2-b", "y");
  fs.Put("/wx", "beside, not under");
  EXPECT_TRUE(fs.RemoveAll("/w").ok());
  EXPECT_TRUE(fs.FilesUnder("/w").empty());
  EXPECT_FALSE(fs.IsDir("/w"));
  EXPECT_EQ(fs.Contents("/wx"), "beside, not under");
}

TEST(MemFileSystemTest, LockIsExclusiveUntilReleased) {
  MemFileSystem fs;
  ASSERT_TRUE(fs.CreateDirs("/w").ok());
  auto first = fs.Lock("/w/lock");
  ASSERT_TRUE(first.ok());
  auto second = fs.Lock("/w/lock");
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().code(), Status::Code::kUnavailable);
  first->reset();
  EXPECT_TRUE(fs.Lock("/w/lock").ok());
  EXPECT_FALSE(fs.Lock("/none/lock").ok());
}

}  // namespace
}  // namespace gs::testing
