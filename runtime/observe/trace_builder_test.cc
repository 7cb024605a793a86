#include "runtime/observe/trace_builder.h"

#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
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
