#include "adapters/local/sandbox_pool.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>

#include "adapters/local/job_files.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_files.h"

namespace gs {
namespace {

class SandboxPoolTest : public ::testing::Test {
 protected:
  SandboxPoolTest() { std::filesystem::create_directories(jobs_); }
  int Entries() const {
    int n = 0;
    for (const auto& e : std::filesystem::directory_iterator(jobs_)) {
      (void)e;
      ++n;
    }
    return n;
  }
  TempDir dir_;
  const std::string jobs_ = dir_ / "jobs";
};

TEST_F(SandboxPoolTest, CleanSandboxIsReusedWithItsResultMarkedStale) {
  SandboxPool pool(RealFileSystem(), jobs_, 2);
  auto first = pool.Acquire(jobs_ + "/1");
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(*first, jobs_ + "/1") << "a fresh one has the job's name";
  WriteText(jobs_ + "/1/stdout", "");
  WriteText(jobs_ + "/1/result", "42\n");
  pool.Release(jobs_ + "/1");
  EXPECT_TRUE(Exists(jobs_ + "/1")) << "kept under its name";
  EXPECT_EQ(pool.idle(), 1);

  EXPECT_EQ(pool.NextPath(jobs_ + "/2"), jobs_ + "/1");
  auto second = pool.Acquire(jobs_ + "/2");
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(*second, jobs_ + "/1") << "reused under its name, not renamed";
  EXPECT_EQ(pool.NextPath(jobs_ + "/3"), jobs_ + "/3") << "none idle: fresh";
  EXPECT_EQ(pool.idle(), 0);
  EXPECT_FALSE(Exists(jobs_ + "/2")) << "no fresh one made";
  EXPECT_TRUE(Exists(jobs_ + "/1/stdout")) << "reused, not recreated";
  EXPECT_FALSE(ReadResultFile(RealFileSystem(), jobs_ + "/1/result", 100).ok())
      << "the earlier job's result must not count for this one";
  struct stat st;
  ASSERT_EQ(::stat((jobs_ + "/1").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
}

TEST_F(SandboxPoolTest, SandboxWithOtherFilesIsRemoved) {
  SandboxPool pool(RealFileSystem(), jobs_, 2);
  ASSERT_TRUE(pool.Acquire(jobs_ + "/1").ok());
  WriteText(jobs_ + "/1/scratch.tmp", "x");
  pool.Release(jobs_ + "/1");
  EXPECT_EQ(pool.idle(), 0);
  EXPECT_EQ(Entries(), 0);

  ASSERT_TRUE(pool.Acquire(jobs_ + "/2").ok());
  std::filesystem::create_directories(jobs_ + "/2/subdir");
  pool.Release(jobs_ + "/2");
  EXPECT_EQ(pool.idle(), 0);
  EXPECT_EQ(Entries(), 0);
}

// A pooled worker reports its sandbox (ServeReply): the pool trusts that
// report instead of listing, and leaves the old result to the worker.
TEST_F(SandboxPoolTest, AKnownCleanSandboxIsNotListedNorItsResultMarked) {
  SandboxPool pool(RealFileSystem(), jobs_, 2);
  ASSERT_TRUE(pool.Acquire(jobs_ + "/1").ok());
  WriteText(jobs_ + "/1/result", "42\n");
  WriteText(jobs_ + "/1/unlisted", "x");
  pool.Release(jobs_ + "/1", /*known_clean=*/true);
  EXPECT_EQ(pool.idle(), 1) << "kept on the caller's word";

  auto second = pool.Acquire(jobs_ + "/2", /*mark_stale=*/false);
  ASSERT_TRUE(second.ok());
  auto result = ReadResultFile(RealFileSystem(), *second + "/result", 100);
  ASSERT_TRUE(result.ok()) << "not marked: the worker marks it";
  EXPECT_EQ(*result, "42\n");
}

TEST_F(SandboxPoolTest, KeepsAtMostMaxIdle) {
  SandboxPool pool(RealFileSystem(), jobs_, 1);
  ASSERT_TRUE(pool.Acquire(jobs_ + "/1").ok());
  ASSERT_TRUE(pool.Acquire(jobs_ + "/2").ok());
  pool.Release(jobs_ + "/1");
  pool.Release(jobs_ + "/2");
  EXPECT_EQ(pool.idle(), 1);
  EXPECT_EQ(Entries(), 1);
}

TEST_F(SandboxPoolTest, AcquireReplacesAStaleSandboxOfTheSameId) {
  SandboxPool pool(RealFileSystem(), jobs_, 2);
  std::filesystem::create_directories(jobs_ + "/9");
  WriteText(jobs_ + "/9/out.0", "from an earlier run");
  ASSERT_TRUE(pool.Acquire(jobs_ + "/9").ok());
  EXPECT_FALSE(Exists(jobs_ + "/9/out.0"));
  EXPECT_EQ(Entries(), 1);
}

TEST_F(SandboxPoolTest, ClearAndDestructorRemoveIdleSandboxes) {
  {
    SandboxPool pool(RealFileSystem(), jobs_, 4);
    ASSERT_TRUE(pool.Acquire(jobs_ + "/1").ok());
    ASSERT_TRUE(pool.Acquire(jobs_ + "/2").ok());
    pool.Release(jobs_ + "/1");
    pool.Release(jobs_ + "/2");
    EXPECT_EQ(Entries(), 2);
    pool.Clear();
    EXPECT_EQ(Entries(), 0);
    ASSERT_TRUE(pool.Acquire(jobs_ + "/3").ok());
    pool.Release(jobs_ + "/3");
    EXPECT_EQ(Entries(), 1);
  }
  EXPECT_EQ(Entries(), 0);
}

}  // namespace
}  // namespace gs
