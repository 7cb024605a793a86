// The in-memory file system keeps the rules of the real one that the engine
// relies on (runtime/base/file_system_test.cc checks the real one).
#include "tests/support/mem_file_system.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

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

TEST(MemFileSystemTest, ExamineSetModifiedAndFreeBytes) {
  MemFileSystem fs;
  fs.Put("/d/f", "123");
  auto file = fs.Examine("/d/f");
  ASSERT_TRUE(file.ok());
  EXPECT_FALSE(file->directory);
  EXPECT_EQ(file->size, 3u);
  auto dir = fs.Examine("/d");
  ASSERT_TRUE(dir.ok());
  EXPECT_TRUE(dir->directory);
  EXPECT_EQ(fs.Examine("/x").status().code(), Status::Code::kNotFound);
  ASSERT_TRUE(fs.SetModified("/d/f", 0).ok());
  EXPECT_EQ(fs.Stat("/d/f").mtime_ns, 0);
  ASSERT_TRUE(fs.WriteFile("/d/f", "4").ok());
  EXPECT_GT(fs.Stat("/d/f").mtime_ns, 0);
  EXPECT_FALSE(fs.SetModified("/x", 0).ok());
  fs.set_free_bytes(10);
  EXPECT_EQ(*fs.FreeBytes("/d"), 10u);
  EXPECT_FALSE(fs.FreeBytes("/x").ok());
}

TEST(MemFileSystemTest, ListDirNamesDirectChildren) {
  MemFileSystem fs;
  fs.Put("/d/f", "x");
  fs.Put("/d/sub/g", "y");
  std::map<std::string, DirEntry::Kind> seen;
  ASSERT_TRUE(fs.ListDir("/d", [&](const DirEntry& e) {
                  seen[std::string(e.name)] = e.kind;
                  return true;
                }).ok());
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen["f"], DirEntry::Kind::kRegular);
  EXPECT_EQ(seen["sub"], DirEntry::Kind::kDirectory);
  EXPECT_FALSE(fs.ListDir("/d/f", [](const DirEntry&) { return true; }).ok());
}

TEST(MemFileSystemTest, RenameMovesDirectoriesAndMakesParentsWhenAsked) {
  MemFileSystem fs;
  fs.Put("/d/f", "x");
  ASSERT_TRUE(fs.CreateDirs("/e").ok());
  ASSERT_TRUE(fs.Rename("/d", "/e").ok());
  EXPECT_EQ(fs.Contents("/e/f"), "x");
  EXPECT_FALSE(fs.IsDir("/d"));
  ASSERT_TRUE(fs.CreateDirs("/d").ok());
  EXPECT_FALSE(fs.Rename("/d", "/e").ok()) << "e is not empty";
  EXPECT_FALSE(fs.Rename("/e/f", "/x/y/f").ok());
  ReplaceOptions options;
  options.make_parents = true;
  ASSERT_TRUE(fs.RenameWith("/e/f", "/x/y/f", options).ok());
  EXPECT_EQ(fs.Contents("/x/y/f"), "x");
}

TEST(MemFileSystemTest, CopyAtomicallyMakeAndRemovePrivateDirs) {
  MemFileSystem fs;
  fs.Put("/d/a", "bytes");
  ASSERT_TRUE(fs.CopyAtomically("/d/a", "/d/b", {}).ok());
  EXPECT_EQ(fs.Contents("/d/b"), "bytes");
  EXPECT_FALSE(fs.CopyAtomically("/d/a", "/no/b", {}).ok());
  ASSERT_TRUE(fs.MakePrivateDir("/d/p").ok());
  EXPECT_TRUE(fs.IsPrivate("/d/p"));
  EXPECT_EQ(fs.MakePrivateDir("/d/p").code(),
            Status::Code::kFailedPrecondition);
  EXPECT_EQ(fs.MakePrivateDir("/no/p").code(), Status::Code::kNotFound);
  fs.Put("/d/p/f", "x");
  EXPECT_FALSE(fs.RemoveDir("/d/p").ok());
  ASSERT_TRUE(fs.Remove("/d/p/f").ok());
  EXPECT_TRUE(fs.RemoveDir("/d/p").ok());
  EXPECT_FALSE(fs.IsDir("/d/p"));
  EXPECT_TRUE(fs.RemoveDir("/d/p").ok());
}

}  // namespace
}  // namespace gs::testing
