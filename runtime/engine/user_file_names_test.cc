#include "runtime/engine/user_file_names.h"

#include <gtest/gtest.h>

namespace gs {
namespace {

TEST(UserFileNamesTest, DataPathsBecomeTheUsersNames) {
  std::vector<PathName> names = {
      {"/w/.gsrt/data/9-counts_2.txt", "counts_2.txt"},
      {"/w/.gsrt/data/4-in.txt", "in.txt"}};
  EXPECT_EQ(WithUserNames("declared output '/w/.gsrt/data/9-counts_2.txt' "
                          "(parameter 2) was not written",
                          names),
            "declared output 'counts_2.txt' (parameter 2) was not written");
  EXPECT_EQ(WithUserNames("cannot copy /w/.gsrt/data/4-in.txt to "
                          "/w/.gsrt/data/9-counts_2.txt",
                          names),
            "cannot copy in.txt to counts_2.txt");
}

TEST(UserFileNamesTest, TheLongestPathWinsAndNamesAreNotRewrittenAgain) {
  // The bare version file name ends the full path; and a name that contains
  // another path must stay as it is.
  std::vector<PathName> names = {
      {"9-a.txt", "a.txt"}, {"/h/data/9-a.txt", "a.txt"}, {"a.txt", "WRONG"}};
  EXPECT_EQ(WithUserNames("'/h/data/9-a.txt' and 9-a.txt", names),
            "'a.txt' and a.txt");
}

TEST(UserFileNamesTest, TextWithoutPathsIsUnchanged) {
  EXPECT_EQ(WithUserNames("exit code 3", {{"/x", "x"}, {"", "empty"}}),
            "exit code 3");
  EXPECT_EQ(WithUserNames("", {{"/x", "x"}}), "");
}

TEST(UserFileNamesTest, UserFileNameIsRelativeToTheMastersDirectory) {
  EXPECT_EQ(UserFileName("/home/u/run", "/home/u/run/counts_2.txt"),
            "counts_2.txt");
  EXPECT_EQ(UserFileName("/home/u/run/", "/home/u/run/out/c.txt"), "out/c.txt");
  EXPECT_EQ(UserFileName("/home/u/run", "/home/u/runner/c.txt"),
            "/home/u/runner/c.txt");
  EXPECT_EQ(UserFileName("/home/u/run", "/tmp/c.txt"), "/tmp/c.txt");
  EXPECT_EQ(UserFileName("/", "/c.txt"), "c.txt");
}

}  // namespace
}  // namespace gs
