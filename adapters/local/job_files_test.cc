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

FileSystem& fs = RealFileSystem();

// How outputs and logs are put in place: fs.Rename with JobFileReplace().
Status MoveJobFile(const std::string& from, const std::string& to) {
  return RealFileSystem().RenameWith(from, to, JobFileReplace());
}

TEST(JobFilesTest, MoveCreatesParentsAndReplaces) {
  TempDir dir;
  WriteText(dir / "a", "one");
  ASSERT_TRUE(MoveJobFile(dir / "a", dir / "x/y/z").ok());
  EXPECT_EQ(ReadText(dir / "x/y/z"), "one");
  EXPECT_FALSE(Exists(dir / "a"));
  WriteText(dir / "b", "two");
  ASSERT_TRUE(MoveJobFile(dir / "b", dir / "x/y/z").ok());
  EXPECT_EQ(ReadText(dir / "x/y/z"), "two");
  Status s = MoveJobFile(dir / "absent", dir / "x/q");
  EXPECT_FALSE(s.ok());
  EXPECT_THAT(s.message(), HasSubstr(dir / "absent"));
}

TEST(JobFilesTest, MoveAcrossFileSystemsKeepsTheMode) {
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
  ASSERT_EQ(::chmod(shm.c_str(), 0750), 0);
  Status s = MoveJobFile(shm, dir / "dest");
  std::filesystem::remove(shm);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(ReadText(dir / "dest"), "across");
  struct stat st;
  ASSERT_EQ(::stat((dir / "dest").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0750u);
  for (const auto& e : std::filesystem::directory_iterator(dir.path())) {
    EXPECT_EQ(e.path().filename(), "dest") << "a temporary was left";
  }
}

TEST(JobFilesTest, ResultFileFreshStaleAndMissing) {
  TempDir dir;
  const std::string path = dir / "result";
  EXPECT_EQ(ReadResultFile(fs, path, 100).status().code(),
            Status::Code::kNotFound);
  WriteText(path, "7\n");
  auto fresh = ReadResultFile(fs, path, 100);
  ASSERT_TRUE(fresh.ok());
  EXPECT_EQ(*fresh, "7\n");

  MarkStale(fs, path);
  auto stale = ReadResultFile(fs, path, 100);
  ASSERT_FALSE(stale.ok());
  EXPECT_EQ(stale.status().code(), Status::Code::kNotFound);
  EXPECT_THAT(stale.status().message(), HasSubstr("was not written"));

  WriteText(path, "");  // what a void operation's worker writes
  auto empty = ReadResultFile(fs, path, 100);
  ASSERT_TRUE(empty.ok()) << empty.status().ToString();
  EXPECT_EQ(*empty, "");

  WriteText(path, std::string(101, 'x'));
  EXPECT_FALSE(ReadResultFile(fs, path, 100).ok());
}

TEST(JobFilesTest, RemoveIfStaleKeepsFreshFiles) {
  TempDir dir;
  WriteText(dir / "fresh", "x");
  RemoveIfStale(fs, dir / "fresh");
  EXPECT_TRUE(Exists(dir / "fresh"));
  MarkStale(fs, dir / "fresh");
  RemoveIfStale(fs, dir / "fresh");
  EXPECT_FALSE(Exists(dir / "fresh"));
  MarkStale(fs, dir / "absent");  // harmless
}

TEST(JobFilesTest, MakeFreshDirEmptiesAnOldOne) {
  TempDir dir;
  const std::string sandbox = dir / "jobs/1";
  ASSERT_TRUE(MakeFreshDir(fs, sandbox).ok());  // parents made too
  WriteText(sandbox + "/leftover", "x");
  ASSERT_TRUE(MakeFreshDir(fs, sandbox).ok());
  EXPECT_FALSE(Exists(sandbox + "/leftover"));
  struct stat st;
  ASSERT_EQ(::stat(sandbox.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
}

TEST(JobFilesTest, RemoveDirWithExpectedAndUnexpectedFiles) {
  TempDir dir;
  std::filesystem::create_directories(dir / "a");
  WriteText(dir / "a/stdout", "");
  RemoveDir(fs, dir / "a", {"stdout"});
  EXPECT_FALSE(Exists(dir / "a"));
  std::filesystem::create_directories(dir / "b/sub");
  WriteText(dir / "b/sub/deep", "");
  RemoveDir(fs, dir / "b", {"stdout"});
  EXPECT_FALSE(Exists(dir / "b"));
  RemoveDir(fs, dir / "never", {});  // harmless
}

// The full case is checked on a real full tmpfs by
// tests/bad_environment_test.sh; here, that a roomy one says nothing.
TEST(JobFilesTest, FullDiskNoteIsSilentWithRoomLeft) {
  TempDir dir;
  EXPECT_EQ(FullDiskNote(fs, dir.path()), "");
  EXPECT_EQ(FullDiskNote(fs, dir / "missing"), "");
}

}  // namespace
}  // namespace gs
