#include "runtime/engine/start_progress.h"

#include <gtest/gtest.h>

#include <cmath>

namespace gs {
namespace {

using Lines = std::vector<std::string>;

TEST(StartProgressTest, AHostReadyWithinASecondIsNotMentioned) {
  StartProgress p;
  size_t h = p.Begin("n1", "ssh", 100);
  EXPECT_EQ(p.Phase(h, StartPhase::kChecking), Lines{});
  EXPECT_EQ(p.Tick(100.9), Lines{});
  EXPECT_EQ(p.Phase(h, StartPhase::kStarting), Lines{});
  EXPECT_EQ(p.End(h, true, 100.95), Lines{});
  EXPECT_EQ(p.Tick(200), Lines{});
}

TEST(StartProgressTest, ASlowHostIsNamedWithItsPhaseThenEachNewPhase) {
  StartProgress p;
  size_t fast = p.Begin("n1", "ssh", 100);
  size_t slow = p.Begin("n2", "ssh", 100);
  EXPECT_EQ(p.NextDue(), 101);
  EXPECT_EQ(p.End(fast, true, 100.5), Lines{});
  EXPECT_EQ(p.Phase(slow, StartPhase::kChecking), Lines{});
  EXPECT_EQ(p.Tick(101),
            Lines{"gsrt: host n2: checking gsrt-agent and the worker "
                  "there...\n"});
  EXPECT_EQ(p.Tick(105), Lines{});  // said once
  EXPECT_EQ(p.Phase(slow, StartPhase::kInstalling),
            Lines{"gsrt: host n2: installing gsrt-agent and the worker "
                  "(missing or changed)...\n"});
  EXPECT_EQ(p.Phase(slow, StartPhase::kInstalling), Lines{});
  EXPECT_EQ(p.Phase(slow, StartPhase::kStarting),
            Lines{"gsrt: host n2: starting the agent...\n"});
  EXPECT_EQ(p.End(slow, true, 112.34),
            Lines{"gsrt: host n2 ready after 12.3 s\n"});
  EXPECT_TRUE(std::isinf(p.NextDue()));
}

TEST(StartProgressTest, TheFirstLineSaysWhichKindConnects) {
  StartProgress p;
  p.Begin("n1", "ssh", 0);
  EXPECT_EQ(p.Tick(1), Lines{"gsrt: host n1: connecting (ssh)...\n"});
}

TEST(StartProgressTest, AHostWaitingForTheOthersIsSilentUntilResumed) {
  StartProgress p;
  size_t h = p.Begin("n1", "ssh", 0);
  p.Pause(h);  // prepared at 0.2 s; the others take 10 s
  EXPECT_TRUE(std::isinf(p.NextDue()));
  EXPECT_EQ(p.Tick(9), Lines{});
  p.Resume(h, 10);
  EXPECT_EQ(p.NextDue(), 11);
  EXPECT_EQ(p.Phase(h, StartPhase::kStarting), Lines{});
  EXPECT_EQ(p.End(h, true, 10.3), Lines{});
}

TEST(StartProgressTest, ASlowEndBeforeAnyTickIsStillReported) {
  StartProgress p;
  size_t h = p.Begin("n1", "ssh", 0);
  EXPECT_EQ(p.End(h, true, 1.5), Lines{"gsrt: host n1 ready after 1.5 s\n"});
}

TEST(StartProgressTest, AFailedSlowHostSaysSoAndLeavesTheWhyToLaterLines) {
  StartProgress p;
  size_t h = p.Begin("n1", "ssh", 0);
  EXPECT_EQ(p.Tick(1).size(), 1u);
  EXPECT_EQ(p.End(h, false, 3),
            Lines{"gsrt: host n1 not usable after 3.0 s (why: below)\n"});
  EXPECT_EQ(p.End(h, true, 4), Lines{});
}

TEST(StartProgressTest, TheQuietTimeIsTheCallersChoice) {
  StartProgress p(0.25);
  p.Begin("n1", "local", 0);
  EXPECT_EQ(p.Tick(0.2), Lines{});
  EXPECT_EQ(p.Tick(0.25), Lines{"gsrt: host n1: connecting (local)...\n"});
}

}  // namespace
}  // namespace gs
