#include "adapters/local/job_files.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>

#include "tests/support/temp_dir.h"
#include "tests/support/test_files.h"

namespace gs {
namespace {

using ::testing::HasSubstr;

TEST(JobFilesTest, FileSize) {
  TempDir dir;
  WriteText(dir / "f", "12345");
  auto size = FileSize(dir / "f");
  ASSERT_TRUE(size.ok());
  EXPECT_EQ(*size, 5u);
  auto missing = FileSize(dir / "nope");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), Status::Code::kNotFound);
  EXPECT_THAT(missing.status().message(), HasSubstr(dir / "nope"));
}

TEST(JobFilesTest, CopyFileOverwrites) {
  TempDir dir;
  WriteText(dir / "a", "new");
  WriteText(dir / "b", "old and longer");
  ASSERT_TRUE(CopyFile(dir / "a", dir / "b").ok());
  EXPECT_EQ(ReadText(dir / "b"), "new");
  EXPECT_FALSE(CopyFile(dir / "absent", dir / "c").ok());
}

TEST(JobFilesTest, MoveFileCreatesParentsAndReplaces) {
  TempDir dir;
  WriteText(dir / "a", "one");
  ASSERT_TRUE(MoveFile(dir / "a", dir / "x/y/z").ok());
  EXPECT_EQ(ReadText(dir / "x/y/z"), "one");
  EXPECT_FALSE(Exists(dir / "a"));
  WriteText(dir / "b", "two");
  ASSERT_TRUE(MoveFile(dir / "b", dir / "x/y/z").ok());
  EXPECT_EQ(ReadText(dir / "x/y/z"), "two");
  Status s = MoveFile(dir / "absent", dir / "x/q");
  EXPECT_FALSE(s.ok());
  EXPECT_THAT(s.message(), HasSubstr(dir / "absent"));
}

TEST(JobFilesTest, MoveFileAcrossFileSystems) {
  // /dev/shm is a tmpfs on Linux; skip where it is not a separate mount.
  TempDir dir;
  const std::string shm =
      "/dev/shm/gsrt-job-files-test-" + std::to_string(::getpid());
  struct stat a, b;
  if (::stat("/dev/shm", &b) != 0 || ::stat(dir.path().c_str(), &a) != 0 ||
      a.st_dev == b.st_dev) {
    GTEST_SKIP() << "no second file system at /dev/shm";
  }
  WriteText(shm, "across");
  Status s = MoveFile(shm, dir / "dest");
  std::filesystem::remove(shm);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(ReadText(dir / "dest"), "across");
  for (const auto& e : std::filesystem::directory_iterator(dir.path())) {
    EXPECT_EQ(e.path().filename(), "dest") << "a temporary was left";
  }
}

TEST(JobFilesTest, ResultFileFreshStaleAndMissing) {
  TempDir dir;
  const std::string path = dir / "result";
  EXPECT_EQ(ReadResultFile(path, 100).status().code(), Status::Code::kNotFound);
  WriteText(path, "7\n");
  auto fresh = ReadResultFile(path, 100);
  ASSERT_TRUE(fresh.ok());
  EXPECT_EQ(*fresh, "7\n");

  MarkStale(path);
  auto stale = ReadResultFile(path, 100);
  ASSERT_FALSE(stale.ok());
  EXPECT_EQ(stale.status().code(), Status::Code::kNotFound);
  EXPECT_THAT(stale.status().message(), HasSubstr("was not written"));

  WriteText(path, "");  // what a void operation's worker writes
  auto empty = ReadResultFile(path, 100);
  ASSERT_TRUE(empty.ok()) << empty.status().ToString();
  EXPECT_EQ(*empty, "");

  WriteText(path, std::string(101, 'x'));
  EXPECT_FALSE(ReadResultFile(path, 100).ok());
}

TEST(JobFilesTest, RemoveIfStaleKeepsFreshFiles) {
  TempDir dir;
  WriteText(dir / "fresh", "x");
  RemoveIfStale(dir / "fresh");
  EXPECT_TRUE(Exists(dir / "fresh"));
  MarkStale(dir / "fresh");
  RemoveIfStale(dir / "fresh");
  EXPECT_FALSE(Exists(dir / "fresh"));
  MarkStale(dir / "absent");  // harmless
}

TEST(JobFilesTest, MakeFreshDirEmptiesAnOldOne) {
  TempDir dir;
  const std::string sandbox = dir / "jobs/1";
  ASSERT_TRUE(MakeFreshDir(sandbox).ok());  // parents made too
  WriteText(sandbox + "/leftover", "x");
  ASSERT_TRUE(MakeFreshDir(sandbox).ok());
  EXPECT_FALSE(Exists(sandbox + "/leftover"));
  struct stat st;
  ASSERT_EQ(::stat(sandbox.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
}

TEST(JobFilesTest, RemoveDirWithExpectedAndUnexpectedFiles) {
  TempDir dir;
  std::filesystem::create_directories(dir / "a");
  WriteText(dir / "a/stdout", "");
  RemoveDir(dir / "a", {"stdout"});
  EXPECT_FALSE(Exists(dir / "a"));
  std::filesystem::create_directories(dir / "b/sub");
  WriteText(dir / "b/sub/deep", "");
  RemoveDir(dir / "b", {"stdout"});
  EXPECT_FALSE(Exists(dir / "b"));
  RemoveDir(dir / "never", {});  // harmless
}

// The full case is checked on a real full tmpfs by
// tests/bad_environment_test.sh; here, that a roomy one says nothing.
TEST(JobFilesTest, FullDiskNoteIsSilentWithRoomLeft) {
  TempDir dir;
  EXPECT_EQ(FullDiskNote(dir.path()), "");
  EXPECT_EQ(FullDiskNote(dir / "missing"), "");
}

}  // namespace
}  // namespace gs
