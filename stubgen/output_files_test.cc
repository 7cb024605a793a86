#include "stubgen/output_files.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include "stubgen/test_support.h"
#include "tests/support/unprivileged.h"

namespace gs {
namespace {

TEST(OutputNamesTest, BaseEndsAtFirstDotLikeCMakeNameWe) {
  StatusOr<EmitNames> names = OutputNames("some/dir/ledger.idl");
  ASSERT_TRUE(names.ok());
  EXPECT_EQ(names->base, "ledger");
  EXPECT_EQ(names->source, "ledger.idl");
  EXPECT_EQ(OutputNames("a.b.idl")->base, "a");
  EXPECT_EQ(OutputNames("noext")->base, "noext");
  EXPECT_EQ(OutputNames("my-app_2.idl")->base, "my-app_2");
}

TEST(OutputNamesTest, RefusesNamesThatCannotBeIncluded) {
  EXPECT_FALSE(OutputNames(".idl").ok());
  EXPECT_FALSE(OutputNames("dir/").ok());
  StatusOr<EmitNames> bad = OutputNames("my app.idl");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(),
            "cannot name the outputs after 'my app.idl': use only letters, "
            "digits, '_', '-' and '+' before the extension");
}

TEST(ReadTextFileTest, ReadsBytesAndNamesMissingFile) {
  testing::TempDir dir;
  testing::WriteFile(dir / "x.idl", std::string("a\0b\n", 4));
  StatusOr<std::string> text = ReadTextFile(dir / "x.idl");
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(*text, std::string("a\0b\n", 4));

  StatusOr<std::string> missing = ReadTextFile(dir / "nope.idl");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().message(), "cannot read " + (dir / "nope.idl") +
                                            ": No such file or directory");
  EXPECT_FALSE(ReadTextFile(dir.path()).ok());  // a directory
}

TEST(WriteFilesAtomicallyTest, WritesAllFilesAndCreatesTheDirectory) {
  testing::TempDir dir;
  std::string out = dir / "a/b";
  Status s = WriteFilesAtomically(out, {{"x.h", "one"}, {"x.cc", "two"}});
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(testing::ListDir(out), (std::vector<std::string>{"x.cc", "x.h"}));
  EXPECT_EQ(testing::ReadFileOrEmpty(out + "/x.h"), "one");
  EXPECT_EQ(testing::ReadFileOrEmpty(out + "/x.cc"), "two");
  // Overwrites existing outputs.
  ASSERT_TRUE(WriteFilesAtomically(out, {{"x.h", "three"}}).ok());
  EXPECT_EQ(testing::ReadFileOrEmpty(out + "/x.h"), "three");
}

// As root, the write runs as nobody (tests/support/unprivileged.h): root
// ignores directory permissions.
TEST(WriteFilesAtomicallyTest, FailureLeavesNoFilesBehind) {
  testing::TempDir dir;
  ASSERT_EQ(GiveToUnprivileged(dir.path()), "");
  std::string out = dir / "ro";
  UnprivilegedRun run = RunAsUnprivileged([&out] {
    if (::mkdir(out.c_str(), 0555) != 0) return std::string("mkdir failed");
    Status s = WriteFilesAtomically(out, {{"x.h", "one"}, {"x.cc", "two"}});
    return s.ok() ? std::string("written") : s.message();
  });
  ASSERT_TRUE(run.ran) << run.failure;
  EXPECT_NE(run.result.find("cannot create " + out + "/x.h.gsrt-part-"),
            std::string::npos)
      << run.result;
  EXPECT_TRUE(testing::ListDir(out).empty());
  ::chmod(out.c_str(), 0755);
}

TEST(WriteFilesAtomicallyTest, FailureOnALaterFileRemovesEarlierTemporaries) {
  testing::TempDir dir;
  std::string out = dir / "o";
  ASSERT_TRUE(std::filesystem::create_directories(out));
  testing::WriteFile(out + "/a", "old");
  // The second name is too long for its temporary (NAME_MAX), so its
  // creation fails after the first one was written.
  Status s =
      WriteFilesAtomically(out, {{"a", "1"}, {std::string(250, 'b'), "2"}});
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("File name too long"), std::string::npos)
      << s.message();
  EXPECT_EQ(testing::ListDir(out), (std::vector<std::string>{"a"}));
  EXPECT_EQ(testing::ReadFileOrEmpty(out + "/a"), "old");
}

}  // namespace
}  // namespace gs
