#include "runtime/history/reuse_entry.h"

#include <gtest/gtest.h>

namespace gs {
namespace {

ReuseEntry Sample() {
  ReuseEntry e;
  e.operation = "tally";
  e.worker = "w:1";
  e.scalars = ScalarsId("7");
  e.inputs = {{0, "in 1.txt", ContentId("ab12", 5)},
              {2, "rates.txt", ContentId("cd34", 9)}};
  e.outputs = {{1, "out 1.txt", ContentId("ef56", 3), 3}};
  return e;
}

TEST(ReuseKeyTest, IsStableHexAndEveryPartCounts) {
  ReuseEntry e = Sample();
  std::string key = ReuseKeyOf(e);
  EXPECT_EQ(key.size(), 32u);
  EXPECT_EQ(key.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_EQ(key, ReuseKeyOf(Sample()));
  auto changed = [&](auto edit) {
    ReuseEntry c = Sample();
    edit(c);
    return ReuseKeyOf(c) != key;
  };
  EXPECT_TRUE(changed([](ReuseEntry& c) { c.operation = "tallx"; }));
  EXPECT_TRUE(changed([](ReuseEntry& c) { c.worker = "w:2"; }));
  EXPECT_TRUE(changed([](ReuseEntry& c) { c.scalars = ScalarsId("8"); }));
  EXPECT_TRUE(changed(
      [](ReuseEntry& c) { c.inputs[1].identity = ContentId("cd35", 9); }));
  EXPECT_TRUE(changed([](ReuseEntry& c) { c.outputs[0].path = "out 2.txt"; }));
  EXPECT_TRUE(changed([](ReuseEntry& c) { c.inputs[1].param = 3; }));
  // Where an input came from, and what an output held, are not in it: the
  // same bytes read under another name, or a rerun that wrote other
  // bytes, keep the key.
  EXPECT_FALSE(changed([](ReuseEntry& c) { c.inputs[0].path = "x.txt"; }));
  EXPECT_FALSE(changed(
      [](ReuseEntry& c) { c.outputs[0].content = ContentId("0000", 1); }));
}

TEST(ReuseKeyTest, TheCallIgnoresContentsAndArguments) {
  ReuseEntry e = Sample();
  ReuseEntry c = Sample();
  c.inputs[0].identity = ContentId("ffff", 5);
  c.scalars = ScalarsId("9");
  c.worker = "w:3";
  EXPECT_EQ(ReuseCallOf(e), ReuseCallOf(c));
  c.inputs[0].path = "in 2.txt";
  EXPECT_NE(ReuseCallOf(e), ReuseCallOf(c));
}

TEST(ContentIdTest, KnowsItsShape) {
  std::string id = ContentId(std::string(64, 'a'), 1024);
  EXPECT_EQ(id, "s:" + std::string(32, 'a') + ":1024");
  EXPECT_TRUE(IsContentId(id));
  EXPECT_FALSE(IsContentId(AbsentFileId()));
  EXPECT_FALSE(IsContentId(""));
  EXPECT_FALSE(IsContentId("s:" + std::string(32, 'g') + ":1"));
  EXPECT_FALSE(IsContentId("s:" + std::string(32, 'a') + ":1/../x"));
}

TEST(ReuseDetailTest, RoundTrips) {
  ReuseEntry e = Sample();
  e.results = "3.5\n\"quoted\"\n";
  ReuseEntry d;
  ASSERT_TRUE(DecodeReuseDetail(EncodeReuseDetail(e), &d).ok());
  EXPECT_EQ(d.worker, e.worker);
  EXPECT_EQ(d.scalars, e.scalars);
  EXPECT_EQ(d.results, e.results);
  ASSERT_EQ(d.inputs.size(), 2u);
  EXPECT_EQ(d.inputs[1].param, 2u);
  EXPECT_EQ(d.inputs[1].path, "rates.txt");
  EXPECT_EQ(d.inputs[1].identity, e.inputs[1].identity);
  ASSERT_EQ(d.outputs.size(), 1u);
  EXPECT_EQ(d.outputs[0].content, e.outputs[0].content);
  EXPECT_EQ(d.outputs[0].size, 3);
  // The operation is a column of its own, not in the detail.
  d.operation = e.operation;
  EXPECT_EQ(ReuseKeyOf(d), ReuseKeyOf(e));
}

TEST(ReuseDetailTest, RejectsWhatIsNotAnEntry) {
  ReuseEntry d;
  d.key = "k1";
  Status s = DecodeReuseDetail("{\"inputs\": 3}", &d);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("reuse entry k1"), std::string::npos);
  EXPECT_FALSE(DecodeReuseDetail("not json", &d).ok());
  EXPECT_FALSE(
      DecodeReuseDetail("{\"inputs\":[],\"outputs\":[{\"param\":1}]}", &d)
          .ok());
}

TEST(ExplainMissTest, NamesWhatDiffers) {
  ReuseEntry before = Sample();
  EXPECT_EQ(ExplainMiss(before, Sample()), "");
  ReuseEntry now = Sample();
  now.inputs[1].identity = ContentId("9999", 9);
  EXPECT_EQ(ExplainMiss(before, now), "input 'rates.txt' changed");
  now.worker = "w:2";
  now.scalars = ScalarsId("8");
  EXPECT_EQ(ExplainMiss(before, now),
            "the functions changed (the worker differs); the arguments "
            "differ; input 'rates.txt' changed");
  before.worker = "f:aaaa";
  now = Sample();
  now.worker = "f:bbbb";
  EXPECT_EQ(ExplainMiss(before, now), "its function's code changed");
  before = Sample();
  now = Sample();
  now.inputs[0].identity = AbsentFileId();
  EXPECT_EQ(ExplainMiss(before, now), "input 'in 1.txt' is gone");
}

}  // namespace
}  // namespace gs
