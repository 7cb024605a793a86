#include "runtime/history/journal.h"

#include <gtest/gtest.h>

namespace gs {
namespace {

std::string Sig(std::string_view op, std::string_view scalars,
                std::string_view input, std::string_view output) {
  SignatureBuilder b(op, scalars);
  b.AddFile(0, input, output);
  return b.Finish();
}

TEST(SignatureTest, IsStableHex) {
  std::string s = Sig("multiply", "64", "c:00:1", "/w/c.txt");
  EXPECT_EQ(s.size(), 32u);
  EXPECT_EQ(s.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_EQ(s, Sig("multiply", "64", "c:00:1", "/w/c.txt"));
}

TEST(SignatureTest, EveryPartCounts) {
  std::string base = Sig("multiply", "64", "c:00:1", "/w/c.txt");
  EXPECT_NE(base, Sig("multiplx", "64", "c:00:1", "/w/c.txt"));
  EXPECT_NE(base, Sig("multiply", "65", "c:00:1", "/w/c.txt"));
  EXPECT_NE(base, Sig("multiply", "64", "c:00:2", "/w/c.txt"));
  EXPECT_NE(base, Sig("multiply", "64", "c:00:1", "/w/d.txt"));
  // Reading nothing differs from reading an empty-named identity.
  EXPECT_NE(Sig("op", "", "", "/o"), Sig("op", "", "x", "/o"));
}

TEST(SignatureTest, PartsCannotSlideIntoEachOther) {
  // Length prefixes: "ab" + "c" is not "a" + "bc".
  EXPECT_NE(Sig("ab", "c", "", ""), Sig("a", "bc", "", ""));
  SignatureBuilder one("op", "");
  one.AddFile(1, "x", "");
  SignatureBuilder other("op", "");
  other.AddFile(0, "x", "");
  EXPECT_NE(one.Finish(), other.Finish());  // positions count
}

TEST(SignatureTest, VersionIdentities) {
  EXPECT_EQ(ProducedVersionId("abc", 2), "t:abc:2");
  EXPECT_NE(ProducedVersionId("abc", 1), ProducedVersionId("abc", 2));
  EXPECT_EQ(ContentVersionId(0xff, 10), "c:00000000000000ff:10");
  EXPECT_NE(ContentVersionId(1, 10), MissingFileVersionId());
}

JournalEntry Entry(RunId run, TaskId task, std::string sig,
                   std::vector<std::string> files, std::string host = "") {
  JournalEntry e;
  e.run = run;
  e.task = task;
  e.signature = std::move(sig);
  e.operation = "op";
  uint32_t param = 0;
  for (std::string& f : files) {
    JournalOutput o;
    o.param = param++;
    o.file = std::move(f);
    o.host = host;
    o.size = 10;
    e.outputs.push_back(std::move(o));
  }
  return e;
}

TEST(JournalOutputsTest, RoundTrips) {
  JournalEntry e = Entry(3, 7, "s", {"5-c.txt", "6-d.txt"}, "node1");
  e.outputs[0].mtime_ns = 123456789012345;
  e.outputs[0].inode = 42;
  e.outputs[1].gone = true;
  e.results = "0x1.8p+1\n7\n";
  e.reused_from = 2;
  e.worker = "w:0123456789abcdef:4096";
  JournalEntry back;
  ASSERT_TRUE(DecodeJournalOutputs(EncodeJournalOutputs(e), &back).ok());
  ASSERT_EQ(back.outputs.size(), 2u);
  EXPECT_EQ(back.outputs[0].file, "5-c.txt");
  EXPECT_EQ(back.outputs[0].host, "node1");
  EXPECT_EQ(back.outputs[0].size, 10);
  EXPECT_EQ(back.outputs[0].mtime_ns, 123456789012345);
  EXPECT_EQ(back.outputs[0].inode, 42u);
  EXPECT_FALSE(back.outputs[0].gone);
  EXPECT_EQ(back.outputs[1].param, 1u);
  EXPECT_TRUE(back.outputs[1].gone);
  EXPECT_EQ(back.results, e.results);
  EXPECT_EQ(back.reused_from, 2);
  EXPECT_EQ(back.worker, "w:0123456789abcdef:4096");
}

TEST(JournalOutputsTest, AcceptsTheVersionOneArrayAndRejectsGarbage) {
  JournalEntry e;
  ASSERT_TRUE(DecodeJournalOutputs(R"([{"param":0,"file":"1-a"}])", &e).ok());
  ASSERT_EQ(e.outputs.size(), 1u);
  EXPECT_EQ(e.outputs[0].size, -1);  // unknown
  EXPECT_FALSE(DecodeJournalOutputs("not json", &e).ok());
  EXPECT_FALSE(DecodeJournalOutputs(R"({"outputs":[{"file":1}]})", &e).ok());
  EXPECT_FALSE(DecodeJournalOutputs(R"({"results":"x"})", &e).ok());
}

TEST(SameOutputTest, ComparesWhatWasRecorded) {
  JournalOutput o;
  o.size = 10;
  FileFacts f{true, 10, 5, 9};
  EXPECT_TRUE(SameOutput(o, f));  // no time or inode recorded: size only
  o.mtime_ns = 5;
  o.inode = 9;
  EXPECT_TRUE(SameOutput(o, f));
  EXPECT_FALSE(SameOutput(o, FileFacts{true, 11, 5, 9}));
  EXPECT_FALSE(SameOutput(o, FileFacts{true, 10, 6, 9}));  // rewritten
  EXPECT_FALSE(SameOutput(o, FileFacts{true, 10, 5, 8}));  // replaced
  EXPECT_FALSE(SameOutput(o, FileFacts{}));                // missing
  o.gone = true;
  EXPECT_FALSE(SameOutput(o, f));
}

TEST(ResumeIndexTest, FindsBySignatureAndOutputNames) {
  ResumeIndex index;
  // Two tasks with one signature (the same call twice) writing different
  // versions; and a task with no outputs (a synchronous one).
  index.AddRun({Entry(1, 0, "zero", {"1-c"}), Entry(1, 1, "zero", {"2-c"}),
                Entry(1, 2, "sum", {})});
  EXPECT_EQ(index.size(), 3u);
  ASSERT_NE(index.Find("zero", {"2-c"}), nullptr);
  EXPECT_EQ(index.Find("zero", {"2-c"})->task, 1u);
  EXPECT_EQ(index.Find("zero", {"1-c"})->task, 0u);
  EXPECT_EQ(index.Find("zero", {"3-c"}), nullptr);  // another version
  EXPECT_EQ(index.Find("zero", {}), nullptr);
  EXPECT_NE(index.Find("sum", {}), nullptr);
  EXPECT_EQ(index.Find("nope", {}), nullptr);
}

TEST(ResumeIndexTest, NewerRunsWin) {
  ResumeIndex index;
  // Run 3 (newest) re-journaled task 0 (reused) and wrote 5-x with a task
  // of another signature; run 2's entries for the same files are stale.
  index.AddRun({Entry(3, 0, "a", {"1-a"}), Entry(3, 4, "other", {"5-x"})});
  index.AddRun({Entry(2, 0, "a", {"1-a"}), Entry(2, 4, "old", {"5-x"}),
                Entry(2, 9, "b", {"9-b"})});
  EXPECT_EQ(index.size(), 3u);
  EXPECT_EQ(index.Find("a", {"1-a"})->run, 3);
  EXPECT_EQ(index.Find("old", {"5-x"}), nullptr);
  EXPECT_EQ(index.Find("other", {"5-x"})->run, 3);
  EXPECT_EQ(index.Find("b", {"9-b"})->run, 2);  // only the older run has it
}

TEST(ResumeIndexTest, FilesOnDifferentHostsDoNotShadow) {
  ResumeIndex index;
  index.AddRun({Entry(3, 4, "other", {"5-x"}, "node1")});
  index.AddRun({Entry(2, 4, "old", {"5-x"}, "node2")});
  EXPECT_NE(index.Find("old", {"5-x"}), nullptr);
}

}  // namespace
}  // namespace gs
