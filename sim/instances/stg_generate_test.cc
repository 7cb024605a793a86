#include "sim/instances/stg_generate.h"

#include <gtest/gtest.h>

namespace gs {
namespace {

TEST(StgGenerateTest, TheFileReadsBackAsTheSameGraph) {
  StgGraph g = GenerateStg(60, 0.1, 3);
  auto parsed = ParseStg(FormatStg(g), "generated");
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  ASSERT_EQ(parsed->tasks.size(), g.tasks.size());
  for (size_t i = 0; i < g.tasks.size(); ++i) {
    EXPECT_EQ(parsed->tasks[i].processing_time, g.tasks[i].processing_time);
    EXPECT_EQ(parsed->tasks[i].preds, g.tasks[i].preds) << i;
  }
  EXPECT_EQ(StgCriticalPathLength(*parsed), StgCriticalPathLength(g));
}

TEST(StgGenerateTest, EdgesFollowTheProbabilityAndTimesTheRange) {
  // 500 tasks at p = 0.08: 124,750 pairs, about 9,980 edges.
  StgGraph g = GenerateStg(500, 0.08, 1);
  uint64_t edges = 0;
  for (uint32_t id = 1; id <= 500; ++id) {
    const StgTask& t = g.tasks[id];
    EXPECT_GE(t.processing_time, 1u);
    EXPECT_LE(t.processing_time, 10u);
    for (uint32_t p : t.preds) {
      EXPECT_LT(p, id);  // a DAG in id order
      edges += p != 0;
    }
  }
  EXPECT_GT(edges, 9500u);
  EXPECT_LT(edges, 10500u);
  EXPECT_EQ(g.tasks[0].processing_time, 0u);
  EXPECT_EQ(g.tasks[501].processing_time, 0u);
}

TEST(StgGenerateTest, ASeedGivesOneGraph) {
  EXPECT_EQ(FormatStg(GenerateStg(100, 0.05, 9)),
            FormatStg(GenerateStg(100, 0.05, 9)));
  EXPECT_NE(FormatStg(GenerateStg(100, 0.05, 9)),
            FormatStg(GenerateStg(100, 0.05, 10)));
}

}  // namespace
}  // namespace gs
