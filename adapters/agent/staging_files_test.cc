#include "adapters/agent/staging_files.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "tests/support/temp_dir.h"
#include "tests/support/test_files.h"
#include "tests/support/unprivileged.h"

namespace gs {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

class ConfinedPathTest : public ::testing::Test {
 protected:
  ConfinedPathTest() : root_(fs::canonical(dir_.path()).string()) {}
  TempDir dir_;
  std::string root_;
};

TEST_F(ConfinedPathTest, PathsInsideAreAccepted) {
  EXPECT_EQ(*ConfinedPath(root_, "data/a b.txt"), root_ + "/data/a b.txt");
  EXPECT_EQ(*ConfinedPath(root_, root_ + "/x"), root_ + "/x");
  EXPECT_EQ(*ConfinedPath(root_, "./y"), root_ + "/y");
  EXPECT_EQ(*ConfinedPath(root_, "a//b"), root_ + "/a/b");
}

TEST_F(ConfinedPathTest, TraversalIsRefused) {
  for (const std::string& p :
       {std::string("../x"), std::string("a/../../x"), root_ + "/../x",
        std::string("a/.."), std::string("/etc/passwd"), root_, root_ + "/.",
        root_ + "sibling/x"}) {
    auto r = ConfinedPath(root_, p);
    EXPECT_FALSE(r.ok()) << p << " -> " << (r.ok() ? *r : "");
    if (!r.ok()) {
      EXPECT_EQ(r.status().code(), Status::Code::kPermissionDenied) << p;
    }
  }
}

TEST_F(ConfinedPathTest, SymlinksLeadingOutAreRefused) {
  TempDir outside;
  fs::create_directory_symlink(outside.path(), root_ + "/out");
  auto r = ConfinedPath(root_, "out/secret");
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("outside the work dir"));
  fs::create_symlink("/etc/passwd", root_ + "/pw");
  EXPECT_FALSE(ConfinedPath(root_, "pw").ok());
  // A symlink that stays inside is fine.
  fs::create_directory(root_ + "/real");
  fs::create_directory_symlink(root_ + "/real", root_ + "/alias");
  EXPECT_EQ(*ConfinedPath(root_, "alias/f"), root_ + "/real/f");
}

TEST_F(ConfinedPathTest, BadInputIsInvalid) {
  EXPECT_EQ(ConfinedPath(root_, "").status().code(),
            Status::Code::kInvalidArgument);
  EXPECT_EQ(ConfinedPath(root_, std::string("a\0b", 3)).status().code(),
            Status::Code::kInvalidArgument);
  EXPECT_EQ(ConfinedPath(root_, "dir/").status().code(),
            Status::Code::kInvalidArgument);
}

size_t FilesIn(const std::string& dir) {
  size_t n = 0;
  for (auto it = fs::recursive_directory_iterator(dir);
       it != fs::recursive_directory_iterator(); ++it) {
    if (it->is_regular_file()) ++n;
  }
  return n;
}

TEST(IncomingFileTest, CommitRenamesIntoPlace) {
  TempDir dir;
  const std::string dest = dir / "new dir/sub/file name";
  auto f = IncomingFile::Create(dest);
  ASSERT_TRUE(f.ok()) << f.status().ToString();
  ASSERT_TRUE((*f)->Append("hello ").ok());
  EXPECT_FALSE(Exists(dest));  // half-received never counts
  ASSERT_TRUE((*f)->Append("world").ok());
  ASSERT_TRUE((*f)->Commit(11, ContentHash::Of("hello world")).ok());
  EXPECT_EQ(ReadText(dest), "hello world");
  f->reset();
  EXPECT_EQ(FilesIn(dir.path()), 1u);  // no temporary left
  EXPECT_EQ(fs::status(dest).permissions() & fs::perms::others_read,
            fs::perms::others_read);
}

TEST(IncomingFileTest, ReplacesAnExistingFile) {
  TempDir dir;
  WriteText(dir / "f", "old content");
  auto f = IncomingFile::Create(dir / "f");
  ASSERT_TRUE(f.ok());
  ASSERT_TRUE((*f)->Append("new").ok());
  ASSERT_TRUE((*f)->Commit(3, ContentHash::Of("new")).ok());
  EXPECT_EQ(ReadText(dir / "f"), "new");
}

TEST(IncomingFileTest, WrongSizeOrHashLeavesNothing) {
  TempDir dir;
  {
    auto f = IncomingFile::Create(dir / "a");
    ASSERT_TRUE((*f)->Append("abc").ok());
    Status s = (*f)->Commit(4, ContentHash::Of("abc"));
    EXPECT_THAT(s.message(), HasSubstr("3 bytes arrived"));
  }
  {
    auto f = IncomingFile::Create(dir / "b");
    ASSERT_TRUE((*f)->Append("abc").ok());
    Status s = (*f)->Commit(3, ContentHash::Of("abd"));
    EXPECT_THAT(s.message(), HasSubstr("hash does not match"));
  }
  EXPECT_FALSE(Exists(dir / "a"));
  EXPECT_FALSE(Exists(dir / "b"));
  EXPECT_EQ(FilesIn(dir.path()), 0u);
}

TEST(IncomingFileTest, AbandonedTransferRemovesItsTemporary) {
  TempDir dir;
  {
    auto f = IncomingFile::Create(dir / "c");
    ASSERT_TRUE((*f)->Append("partial").ok());
    EXPECT_EQ(FilesIn(dir.path()), 1u);
  }
  EXPECT_EQ(FilesIn(dir.path()), 0u);
}

// As root, the write runs as nobody (tests/support/unprivileged.h): root
// writes anywhere.
TEST(IncomingFileTest, UnwritableDirectoryIsAnError) {
  TempDir dir;
  ASSERT_EQ(GiveToUnprivileged(dir.path()), "");
  UnprivilegedRun run = RunAsUnprivileged([&dir] {
    fs::create_directory(dir / "ro");
    fs::permissions(dir / "ro", fs::perms::owner_read | fs::perms::owner_exec);
    auto f = IncomingFile::Create(dir / "ro/x");
    return f.ok() ? std::string("created") : f.status().message();
  });
  std::error_code ignored;  // when the child did not get as far as ro
  fs::permissions(dir / "ro", fs::perms::owner_all, ignored);
  ASSERT_TRUE(run.ran) << run.failure;
  EXPECT_NE(run.result, "created");
  EXPECT_THAT(run.result, HasSubstr("ro/x"));
}

}  // namespace
}  // namespace gs
