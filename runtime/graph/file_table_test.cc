#include "runtime/graph/file_table.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace gs {
namespace {

TEST(FileTableTest, SpellingsOfOnePathAreOneFile) {
  FileTable files("/work/run");
  FileId a = files.Intern("a.txt");
  EXPECT_EQ(files.Intern("./a.txt"), a);
  EXPECT_EQ(files.Intern("/work/run/a.txt"), a);
  EXPECT_EQ(files.Intern("../run/a.txt"), a);
  EXPECT_EQ(files.Intern("a.txt"), a);
  EXPECT_NE(files.Intern("b.txt"), a);
  EXPECT_EQ(files.path(a), "/work/run/a.txt");
  EXPECT_EQ(files.size(), 2u);
}

// Plain names skip std::filesystem (file_table.cc): every name, plain or
// not, must still get exactly what Normalize (lexically_normal) gives.
TEST(FileTableTest, PathsAreWhatNormalizeGivesForAnySpelling) {
  const char* segments[] = {"a", "b.dat", ".", "..", "", "x_1_2.dat", "..."};
  std::mt19937 rng(3);
  for (const char* cwd :
       {"/work", "/", "/a/b/", "/a/../b", "/a/./b", "rel/dir", ""}) {
    FileTable files(cwd);
    for (int i = 0; i < 3000; ++i) {
      std::string name = rng() % 4 == 0 ? "/" : "";
      for (int n = 1 + rng() % 4; n > 0; --n) {
        name += segments[rng() % std::size(segments)];
        if (n > 1 || rng() % 5 == 0) name += '/';
      }
      FileId id = files.Intern(name);
      ASSERT_EQ(files.path(id), FileTable::Normalize(cwd, name))
          << "cwd '" << cwd << "' name '" << name << "'";
      ASSERT_EQ(files.Intern(name), id);
    }
  }
}

}  // namespace
}  // namespace gs
