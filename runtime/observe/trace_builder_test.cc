#include "runtime/observe/trace_builder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <vector>

namespace gs {
namespace {

using nlohmann::json;

JobRecord Job(TaskId task, const std::string& host, Seconds start, Seconds end,
              OutcomeClass outcome = OutcomeClass::kOk) {
  JobRecord j;
  j.task = task;
  j.job = task + 100;
  j.operation = "scale";
  j.host = host;
  j.submitted = start;
  j.started = start;
  j.ended = end;
  j.outcome = outcome;
  if (outcome == OutcomeClass::kOk) j.exit_code = 0;
  return j;
}

class TraceBuilderTest : public ::testing::Test {
 protected:
  TraceBuilder builder_{
      [this](const std::string& e) { events_.push_back(json::parse(e)); }};
  std::vector<json> events_;

  std::vector<json> Of(const std::string& ph) const {
    std::vector<json> out;
    for (const json& e : events_) {
      if (e.at("ph") == ph) out.push_back(e);
    }
    return out;
  }
};

TEST_F(TraceBuilderTest, JobsOnOneHostNeverOverlapOnASlot) {
  builder_.RunStarted(100, {"h"});
  // Ends arrive in end order; [0,10] overlaps both others.
  builder_.JobEnded(Job(1, "h", 102, 105));
  builder_.JobEnded(Job(2, "h", 106, 108));
  builder_.JobEnded(Job(0, "h", 100, 110));
  std::map<int, std::vector<std::pair<int64_t, int64_t>>> by_tid;
  for (const json& e : Of("X")) {
    by_tid[e.at("tid")].push_back(
        {e.at("ts"), e.at("ts").get<int64_t>() + e.at("dur").get<int64_t>()});
  }
  ASSERT_EQ(by_tid.size(), 2u);
  for (auto& [tid, spans] : by_tid) {
    std::sort(spans.begin(), spans.end());
    for (size_t i = 1; i < spans.size(); ++i) {
      EXPECT_LE(spans[i - 1].second, spans[i].first) << "slot " << tid;
    }
  }
  EXPECT_EQ(Of("X")[0].at("name"), "scale #1");
  EXPECT_EQ(Of("X")[2].at("ts"), 0);  // times count from the run's start
  EXPECT_EQ(Of("X")[2].at("dur"), 10'000'000);
}

// How many slot lanes the trace shows on each host (thread names "slot N").
std::map<int, int> SlotLanesByPid(const std::vector<json>& events) {
  std::map<int, int> lanes;
  for (const json& e : events) {
    if (e.at("ph") == "M" && e.at("name") == "thread_name" &&
        e.at("args").at("name").get<std::string>().rfind("slot ", 0) == 0) {
      ++lanes[e.at("pid").get<int>()];
    }
  }
  return lanes;
}

// Two slots: slot a runs [0,2] then [2.5,6]; slot b runs [1,3] then, 0.2 ms
// after, [3.0002,5]. Taking the first free lane put [3.0002,5] on slot 1
// and [2.5,6] on a third (issue 36); two lanes suffice.
TEST_F(TraceBuilderTest, ATwoSlotHostShowsTwoLanes) {
  builder_.RunStarted(0, {"h"});
  builder_.JobEnded(Job(0, "h", 0, 2));
  builder_.JobEnded(Job(1, "h", 1, 3));
  builder_.JobEnded(Job(2, "h", 3.0002, 5));
  builder_.JobEnded(Job(3, "h", 2.5, 6));
  EXPECT_EQ(SlotLanesByPid(events_), (std::map<int, int>{{1, 2}}));
}

// Random schedules on 1 to 4 slots, jobs back to back or nearly so: the
// lanes never outnumber the most attempts running at once.
TEST_F(TraceBuilderTest, LanesNeverOutnumberTheOverlap) {
  std::mt19937 random(36);
  std::uniform_real_distribution<double> unit(0, 1);
  for (int round = 0; round < 2000; ++round) {
    std::vector<json> events;
    TraceBuilder traced(
        [&events](const std::string& e) { events.push_back(json::parse(e)); });
    traced.RunStarted(0, {"h"});
    const int slots = 1 + static_cast<int>(random() % 4);
    std::vector<JobRecord> jobs;
    std::vector<std::pair<Seconds, int>> edges;  // +1 at a start, -1 at an end
    for (int slot = 0; slot < slots; ++slot) {
      Seconds t = unit(random);
      for (int j = 0, n = 1 + static_cast<int>(random() % 5); j < n; ++j) {
        const Seconds length = 0.001 + 3 * unit(random);
        jobs.push_back(
            Job(static_cast<TaskId>(jobs.size()), "h", t, t + length));
        edges.push_back({t, +1});
        edges.push_back({t + length, -1});
        const double gap = unit(random);
        t += length + (gap < 0.3 ? 0 : gap < 0.6 ? 0.0002 : gap);
      }
    }
    std::sort(edges.begin(), edges.end());  // an end before a start at a tie
    int running = 0, most = 0;
    for (const auto& [time, step] : edges)
      most = std::max(most, running += step);
    std::stable_sort(jobs.begin(), jobs.end(),
                     [](const JobRecord& a, const JobRecord& b) {
                       return a.ended < b.ended;
                     });
    for (const JobRecord& job : jobs) traced.JobEnded(job);
    ASSERT_LE(SlotLanesByPid(events)[1], most) << "round " << round;
  }
}

TEST_F(TraceBuilderTest, AFlowJoinsTheSuccessfulAttemptsOfADependency) {
  builder_.RunStarted(0, {"a", "b"});
  builder_.TaskSubmitted({0, "scale", {}, 0});
  builder_.TaskSubmitted({1, "scale", {0}, 0});
  builder_.JobEnded(Job(0, "a", 0, 1, OutcomeClass::kApp));
  builder_.JobEnded(Job(0, "a", 1, 2));
  builder_.JobEnded(Job(1, "b", 3, 4));
  ASSERT_EQ(Of("s").size(), 1u);
  ASSERT_EQ(Of("f").size(), 1u);
  const json s = Of("s")[0], f = Of("f")[0];
  EXPECT_EQ(s.at("id"), f.at("id"));
  // Inside the producer's second (successful) attempt, on host a...
  EXPECT_GE(s.at("ts").get<int64_t>(), 1'000'000);
  EXPECT_LT(s.at("ts").get<int64_t>(), 2'000'000);
  EXPECT_EQ(s.at("pid"), 1);
  // ...to the start of the consumer on host b.
  EXPECT_EQ(f.at("ts"), 3'000'000);
  EXPECT_EQ(f.at("pid"), 2);
  EXPECT_EQ(Of("X")[1].at("args").at("attempt"), 2);
  EXPECT_EQ(builder_.flows(), 1u);
}

TEST_F(TraceBuilderTest, HostEventsAreInstantsOnTheirHost) {
  builder_.RunStarted(0, {"a"});
  RunEvent e{"host_down", 5};
  e.host = "a";
  e.detail = "connection lost";
  builder_.Event(e);
  ASSERT_EQ(Of("i").size(), 1u);
  EXPECT_EQ(Of("i")[0].at("pid"), 1);
  EXPECT_EQ(Of("i")[0].at("args").at("detail"), "connection lost");
}

}  // namespace
}  // namespace gs
