// RealFileSystem() on a temporary directory.
#include "runtime/base/file_system.h"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "tests/support/temp_dir.h"

namespace gs {
namespace {

namespace fs = std::filesystem;

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class RealFileSystemTest : public ::testing::Test {
 protected:
  FileSystem& fs_ = RealFileSystem();
  TempDir dir_;
};

TEST_F(RealFileSystemTest, StatSeesRegularFilesOnly) {
  EXPECT_FALSE(fs_.Stat(dir_ / "missing").exists);
  EXPECT_FALSE(fs_.Stat(dir_.path()).exists) << "a directory is not a file";
  ASSERT_TRUE(fs_.WriteFile(dir_ / "f", "12345").ok());
  FileInfo f = fs_.Stat(dir_ / "f");
  EXPECT_TRUE(f.exists);
  EXPECT_EQ(f.size, 5u);
  EXPECT_GT(f.mtime_ns, 0);
  struct stat st;
  ASSERT_EQ(::stat((dir_ / "f").c_str(), &st), 0);
  EXPECT_EQ(f.inode, st.st_ino);
}

TEST_F(RealFileSystemTest, ReadGivesEveryByteInOrder) {
  std::string big(3 << 20, '\0');  // more than one chunk
  for (size_t i = 0; i < big.size(); ++i) big[i] = static_cast<char>(i * 7);
  ASSERT_TRUE(fs_.WriteFile(dir_ / "big", big).ok());
  std::string got;
  int chunks = 0;
  ASSERT_TRUE(fs_.Read(dir_ / "big",
                       [&](std::string_view c) {
                         got += c;
                         ++chunks;
                       })
                  .ok());
  EXPECT_EQ(got, big);
  EXPECT_GT(chunks, 1);
  Status s = fs_.Read(dir_ / "missing", [](std::string_view) {});
  EXPECT_EQ(s.code(), Status::Code::kNotFound);
  EXPECT_NE(s.message().find("missing"), std::string::npos) << s.message();
}

TEST_F(RealFileSystemTest, WriteFileFailsInAMissingDirectory) {
  Status s = fs_.WriteFile(dir_ / "no/such/f", "x");
  EXPECT_FALSE(s.ok());
}

TEST_F(RealFileSystemTest, RenameReplacesTheTarget) {
  ASSERT_TRUE(fs_.WriteFile(dir_ / "a", "new").ok());
  ASSERT_TRUE(fs_.WriteFile(dir_ / "b", "old").ok());
  ASSERT_TRUE(fs_.Rename(dir_ / "a", dir_ / "b").ok());
  EXPECT_FALSE(fs_.Stat(dir_ / "a").exists);
  EXPECT_EQ(Slurp(dir_ / "b"), "new");
  Status s = fs_.Rename(dir_ / "a", dir_ / "c");
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("rename"), std::string::npos) << s.message();
}

TEST_F(RealFileSystemTest, RenameAcrossFileSystemsCopies) {
  struct stat here, shm;
  if (::stat(dir_.path().c_str(), &here) != 0 ||
      ::stat("/dev/shm", &shm) != 0 || here.st_dev == shm.st_dev) {
    GTEST_SKIP() << "no second file system beside " << dir_.path();
  }
  std::string other =
      "/dev/shm/gsrt-fs-test-" + std::to_string(::getpid()) + "-moved";
  ASSERT_TRUE(fs_.WriteFile(dir_ / "a", "bytes").ok());
  Status s = fs_.Rename(dir_ / "a", other);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_FALSE(fs_.Stat(dir_ / "a").exists);
  EXPECT_EQ(Slurp(other), "bytes");
  ::unlink(other.c_str());
}

// A copy that cannot finish (here: the file size limit, as a full disk
// would) leaves the target's old content whole and no temporary beside it.
TEST_F(RealFileSystemTest, RenameAcrossFileSystemsKeepsTheTargetOnFailure) {
  struct stat here, shm;
  if (::stat(dir_.path().c_str(), &here) != 0 ||
      ::stat("/dev/shm", &shm) != 0 || here.st_dev == shm.st_dev) {
    GTEST_SKIP() << "no second file system beside " << dir_.path();
  }
  const std::string dir =
      "/dev/shm/gsrt-fs-test-" + std::to_string(::getpid()) + "-dir";
  ASSERT_EQ(::mkdir(dir.c_str(), 0700), 0);
  const std::string target = dir + "/user.txt";
  ASSERT_TRUE(fs_.WriteFile(target, "the user's old content").ok());
  ASSERT_TRUE(fs_.WriteFile(dir_ / "a", std::string(64 << 10, 'x')).ok());

  struct rlimit old_limit;
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old_limit), 0);
  struct rlimit small = old_limit;
  small.rlim_cur = 16 << 10;
  auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  Status s = fs_.Rename(dir_ / "a", target);
  ::setrlimit(RLIMIT_FSIZE, &old_limit);
  std::signal(SIGXFSZ, old_handler);

  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find(target), std::string::npos) << s.ToString();
  EXPECT_EQ(Slurp(target), "the user's old content");
  EXPECT_TRUE(fs_.Stat(dir_ / "a").exists);
  size_t entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++entries;
  EXPECT_EQ(entries, 1u) << "a temporary was left in " << dir;
  fs::remove_all(dir);
}

TEST_F(RealFileSystemTest, CopyFileReplacesTheTarget) {
  ASSERT_TRUE(fs_.WriteFile(dir_ / "a", "one").ok());
  ASSERT_TRUE(fs_.WriteFile(dir_ / "b", "older and longer").ok());
  ASSERT_TRUE(fs_.CopyFile(dir_ / "a", dir_ / "b").ok());
  EXPECT_EQ(Slurp(dir_ / "a"), "one");
  EXPECT_EQ(Slurp(dir_ / "b"), "one");
  EXPECT_FALSE(fs_.CopyFile(dir_ / "missing", dir_ / "c").ok());
}

TEST_F(RealFileSystemTest, RemoveTakesFilesAndEmptyDirectoriesOnly) {
  EXPECT_TRUE(fs_.Remove(dir_ / "missing").ok());
  ASSERT_TRUE(fs_.CreateDirs(dir_ / "d/e").ok());
  ASSERT_TRUE(fs_.WriteFile(dir_ / "d/e/f", "x").ok());
  EXPECT_FALSE(fs_.Remove(dir_ / "d").ok()) << "a directory with files";
  EXPECT_TRUE(fs_.Remove(dir_ / "d/e/f").ok());
  EXPECT_FALSE(fs::exists(dir_ / "d/e/f"));
  EXPECT_TRUE(fs_.Remove(dir_ / "d/e").ok());
  EXPECT_FALSE(fs::exists(dir_ / "d/e"));
}

TEST_F(RealFileSystemTest, RemoveAllTakesATree) {
  ASSERT_TRUE(fs_.CreateDirs(dir_ / "t/u").ok());
  ASSERT_TRUE(fs_.WriteFile(dir_ / "t/u/f", "x").ok());
  EXPECT_TRUE(fs_.RemoveAll(dir_ / "t").ok());
  EXPECT_FALSE(fs::exists(dir_ / "t"));
  EXPECT_TRUE(fs_.RemoveAll(dir_ / "t").ok());
}

TEST_F(RealFileSystemTest, RestrictToOwnerLeavesOthersOut) {
  ASSERT_TRUE(fs_.CreateDirs(dir_ / "w").ok());
  ASSERT_TRUE(fs_.RestrictToOwner(dir_ / "w").ok());
  struct stat st;
  ASSERT_EQ(::stat((dir_ / "w").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  EXPECT_FALSE(fs_.RestrictToOwner(dir_ / "missing").ok());
}

TEST_F(RealFileSystemTest, ExamineSeesAnyKindAndSaysWhyNot) {
  ASSERT_TRUE(fs_.WriteFile(dir_ / "f", "123").ok());
  auto file = fs_.Examine(dir_ / "f");
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  EXPECT_TRUE(file->exists);
  EXPECT_FALSE(file->directory);
  EXPECT_EQ(file->size, 3u);
  auto dir = fs_.Examine(dir_.path());
  ASSERT_TRUE(dir.ok());
  EXPECT_TRUE(dir->directory);
  auto missing = fs_.Examine(dir_ / "missing");
  EXPECT_EQ(missing.status().code(), Status::Code::kNotFound);
  auto under_a_file = fs_.Examine(dir_ / "f/g");
  EXPECT_FALSE(under_a_file.ok());
  EXPECT_NE(under_a_file.status().code(), Status::Code::kNotFound);
}

TEST_F(RealFileSystemTest, SetModifiedMarksTheEpochUntilTheNextWrite) {
  ASSERT_TRUE(fs_.WriteFile(dir_ / "f", "x").ok());
  ASSERT_TRUE(fs_.SetModified(dir_ / "f", 0).ok());
  EXPECT_EQ(fs_.Stat(dir_ / "f").mtime_ns, 0);
  ASSERT_TRUE(fs_.WriteFile(dir_ / "f", "y").ok());
  EXPECT_GT(fs_.Stat(dir_ / "f").mtime_ns, 0);
  EXPECT_FALSE(fs_.SetModified(dir_ / "missing", 0).ok());
}

TEST_F(RealFileSystemTest, ListDirNamesEachEntryWithItsKind) {
  ASSERT_TRUE(fs_.CreateDirs(dir_ / "d/sub").ok());
  ASSERT_TRUE(fs_.WriteFile(dir_ / "d/f", "x").ok());
  std::map<std::string, DirEntry::Kind> seen;
  ASSERT_TRUE(fs_.ListDir(dir_ / "d",
                          [&](const DirEntry& e) {
                            seen[std::string(e.name)] = e.kind;
                            return true;
                          })
                  .ok());
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen["f"], DirEntry::Kind::kRegular);
  EXPECT_EQ(seen["sub"], DirEntry::Kind::kDirectory);
  int calls = 0;
  ASSERT_TRUE(fs_.ListDir(dir_ / "d",
                          [&](const DirEntry&) {
                            ++calls;
                            return false;
                          })
                  .ok());
  EXPECT_EQ(calls, 1) << "false stops the listing";
  EXPECT_FALSE(
      fs_.ListDir(dir_ / "d/f", [](const DirEntry&) { return true; }).ok());
}

TEST_F(RealFileSystemTest, FreeBytesOfAFileSystemWithRoom) {
  auto free = fs_.FreeBytes(dir_.path());
  ASSERT_TRUE(free.ok()) << free.status().ToString();
  EXPECT_GT(*free, 0u);
  EXPECT_FALSE(fs_.FreeBytes(dir_ / "missing").ok());
}

TEST_F(RealFileSystemTest, RenameMakesParentsWhenAsked) {
  ASSERT_TRUE(fs_.WriteFile(dir_ / "a", "one").ok());
  EXPECT_FALSE(fs_.Rename(dir_ / "a", dir_ / "x/y/z").ok());
  ReplaceOptions options;
  options.make_parents = true;
  ASSERT_TRUE(fs_.RenameWith(dir_ / "a", dir_ / "x/y/z", options).ok());
  EXPECT_EQ(Slurp(dir_ / "x/y/z"), "one");
  Status s = fs_.RenameWith(dir_ / "absent", dir_ / "x/q", options);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("absent"), std::string::npos) << s.message();
}

TEST_F(RealFileSystemTest, RenameMovesADirectoryOntoAnEmptyOne) {
  ASSERT_TRUE(fs_.CreateDirs(dir_ / "d").ok());
  ASSERT_TRUE(fs_.WriteFile(dir_ / "d/f", "x").ok());
  ASSERT_TRUE(fs_.CreateDirs(dir_ / "e").ok());
  ASSERT_TRUE(fs_.Rename(dir_ / "d", dir_ / "e").ok());
  EXPECT_EQ(Slurp(dir_ / "e/f"), "x");
  ASSERT_TRUE(fs_.CreateDirs(dir_ / "d").ok());
  EXPECT_FALSE(fs_.Rename(dir_ / "d", dir_ / "e").ok()) << "e is not empty";
}

TEST_F(RealFileSystemTest, CopyAtomicallyKeepsTheModeWhenAsked) {
  ASSERT_TRUE(fs_.WriteFile(dir_ / "a", "bytes").ok());
  ASSERT_EQ(::chmod((dir_ / "a").c_str(), 0750), 0);
  ASSERT_TRUE(fs_.WriteFile(dir_ / "b", "old").ok());
  ReplaceOptions options;
  options.keep_mode = true;
  options.sync = false;
  ASSERT_TRUE(fs_.CopyAtomically(dir_ / "a", dir_ / "b", options).ok());
  EXPECT_EQ(Slurp(dir_ / "b"), "bytes");
  struct stat st;
  ASSERT_EQ(::stat((dir_ / "b").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0750u);
  ASSERT_TRUE(fs_.CopyAtomically(dir_ / "a", dir_ / "c", {}).ok());
  ASSERT_EQ(::stat((dir_ / "c").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0111, 0u) << "a new file's mode";
  EXPECT_FALSE(fs_.CopyAtomically(dir_ / "missing", dir_ / "d", {}).ok());
  EXPECT_FALSE(fs_.CopyAtomically(dir_ / "a", dir_ / "no/d", {}).ok());
  size_t entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir_.path())) {
    ++entries;
  }
  EXPECT_EQ(entries, 3u) << "a temporary was left";
}

TEST_F(RealFileSystemTest, MakePrivateDirSaysWhatIsInTheWay) {
  ASSERT_TRUE(fs_.MakePrivateDir(dir_ / "p").ok());
  struct stat st;
  ASSERT_EQ(::stat((dir_ / "p").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  EXPECT_EQ(fs_.MakePrivateDir(dir_ / "p").code(),
            Status::Code::kFailedPrecondition);
  EXPECT_EQ(fs_.MakePrivateDir(dir_ / "no/p").code(), Status::Code::kNotFound);
}

TEST_F(RealFileSystemTest, RemoveDirTakesEmptyDirectoriesOnly) {
  ASSERT_TRUE(fs_.CreateDirs(dir_ / "d/e").ok());
  EXPECT_FALSE(fs_.RemoveDir(dir_ / "d").ok());
  EXPECT_TRUE(fs_.RemoveDir(dir_ / "d/e").ok());
  EXPECT_FALSE(fs::exists(dir_ / "d/e"));
  EXPECT_TRUE(fs_.RemoveDir(dir_ / "d/e").ok()) << "nothing there is fine";
}

TEST_F(RealFileSystemTest, LockIsExclusiveUntilReleased) {
  auto first = fs_.Lock(dir_ / "lock");
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  auto second = fs_.Lock(dir_ / "lock");
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().code(), Status::Code::kUnavailable);
  first->reset();
  auto third = fs_.Lock(dir_ / "lock");
  EXPECT_TRUE(third.ok()) << third.status().ToString();
  EXPECT_FALSE(fs_.Lock(dir_ / "no/dir/lock").ok());
}

}  // namespace
}  // namespace gs
