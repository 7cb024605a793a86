#include "runtime/master/code_facts.h"

#include <gtest/gtest.h>

#include <chrono>
#include <fstream>

#include "tests/support/temp_dir.h"

namespace gs {
namespace {

double Now() {
  return std::chrono::duration<double>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

CodeFacts Sample(const std::string& worker) {
  CodeFacts f;
  f.worker_path = worker;
  f.ld_library_path = "/opt/app/lib:/home/ann/lib";
  f.whole = "w:0123456789abcdef:42";
  f.libraries = "fedcba9876543210";
  f.sources.push_back({worker, StampOf(worker)});
  f.learnt = Now() + 5;  // as if learnt well after the files were written
  f.functions["total"] = "f:00112233445566778899aabbccddeeff";
  return f;
}

TEST(CodeFactsTest, RoundTripsThroughItsText) {
  TempDir dir;
  const std::string worker = dir / "my worker";
  std::ofstream(worker) << "code";
  CodeFacts f = Sample(worker);
  f.sources.push_back({dir.path(), StampOf(dir.path(), true)});
  CodeFacts back;
  ASSERT_TRUE(ParseCodeFacts(FormatCodeFacts(f), &back));
  EXPECT_EQ(back.worker_path, worker);
  EXPECT_EQ(back.ld_library_path, f.ld_library_path);
  EXPECT_EQ(back.whole, f.whole);
  EXPECT_EQ(back.libraries, f.libraries);
  ASSERT_EQ(back.sources.size(), 2u);
  EXPECT_EQ(back.sources[0].path, worker);
  EXPECT_EQ(back.sources[0].stamp.inode, f.sources[0].stamp.inode);
  EXPECT_EQ(back.sources[1].stamp.mtime_ns, f.sources[1].stamp.mtime_ns);
  EXPECT_EQ(back.functions, f.functions);
  EXPECT_NEAR(back.learnt, f.learnt, 1e-5);
}

TEST(CodeFactsTest, RejectsWhatIsNotSuchAFile) {
  CodeFacts f;
  EXPECT_FALSE(ParseCodeFacts("", &f));
  EXPECT_FALSE(ParseCodeFacts("gsrt-code-facts 2\nwhole w:1\n", &f));
  std::string text = FormatCodeFacts(Sample("/bin/sh"));
  EXPECT_TRUE(ParseCodeFacts(text, &f));
  EXPECT_FALSE(ParseCodeFacts(text.substr(0, text.size() - 3), &f))
      << "cut short";
  EXPECT_FALSE(ParseCodeFacts(text + "colour blue\n", &f));
  CodeFacts odd = Sample("/bin/sh");
  odd.worker_path = "/tmp/a\nb";
  EXPECT_EQ(FormatCodeFacts(odd), "") << "a path with a newline is not kept";
}

TEST(CodeFactsTest, HoldWhileEverySourceStatsAsItDid) {
  TempDir dir;
  const std::string worker = dir / "w";
  std::ofstream(worker) << "code";
  CodeFacts f = Sample(worker);
  EXPECT_TRUE(CodeFactsHold(f, worker, f.ld_library_path));
  EXPECT_FALSE(CodeFactsHold(f, worker + "2", f.ld_library_path));
  EXPECT_FALSE(CodeFactsHold(f, worker, "/elsewhere"));
  CodeFacts racy = f;
  racy.learnt = Now() - 5;  // learnt before the file's last change
  EXPECT_FALSE(CodeFactsHold(racy, worker, f.ld_library_path));
  std::ofstream(worker, std::ios::app) << "rebuilt";
  EXPECT_FALSE(CodeFactsHold(f, worker, f.ld_library_path));
}

TEST(CodeFactsTest, GuardsTheDirectoriesTheLoaderSearches) {
  EXPECT_EQ(GuardDirectories("/home/ann/build/app-worker",
                             {"/home/ann/build/lib/libsteps.so"},
                             "/opt/lib::/home/ann/build"),
            (std::vector<std::string>{"/etc", "/home/ann/build",
                                      "/home/ann/build/lib", "/opt/lib"}));
}

}  // namespace
}  // namespace gs
