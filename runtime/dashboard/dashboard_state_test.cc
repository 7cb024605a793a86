#include "runtime/dashboard/dashboard_state.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace gs {
namespace {

using nlohmann::json;

json Op(const json& snapshot, const std::string& name) {
  for (const json& o : snapshot.at("operations")) {
    if (o.at("operation") == name) return o;
  }
  ADD_FAILURE() << "no operation " << name;
  return json();
}

TEST(DashboardStateTest, CountsFollowATaskThroughItsStates) {
  DashboardState s;
  s.OnRunStarted(100, {"node1"});
  s.OnTaskSubmitted({0, "scale", {}, 100});
  s.OnTaskSubmitted({1, "scale", {0}, 100});
  EXPECT_EQ(Op(json::parse(s.SnapshotJson(101)), "scale").at("waiting"), 2);
  s.OnJobStarted({7, 0, "scale", "node1", 101, false});
  json j = json::parse(s.SnapshotJson(101));
  EXPECT_EQ(Op(j, "scale").at("running"), 1);
  EXPECT_EQ(j.at("hosts")[0].at("running"), 1);
  JobRecord rec;
  rec.task = 0;
  rec.job = 7;
  rec.operation = "scale";
  rec.host = "node1";
  rec.started = 101;
  rec.ended = 103;
  s.OnJobEnded(rec);
  s.OnTaskEnded({0, "done", 103});
  j = json::parse(s.SnapshotJson(104));
  EXPECT_EQ(Op(j, "scale").at("done"), 1);
  EXPECT_EQ(Op(j, "scale").at("running"), 0);
  EXPECT_EQ(Op(j, "scale").at("waiting"), 1);
  EXPECT_EQ(j.at("stream").size(), 1u);
  EXPECT_DOUBLE_EQ(j.at("stream")[0].at("start").get<double>(), 1);
  // 1 of 2 finished in 4 s: about 4 s left.
  EXPECT_DOUBLE_EQ(j.at("eta_s").get<double>(), 4);
}

// A task done by reusing an earlier run's results (docs/reuse.md) is done,
// and counted apart as reused.
TEST(DashboardStateTest, AReusedTaskIsDoneAndCountedApart) {
  DashboardState s;
  s.OnRunStarted(100, {"node1"});
  s.OnTaskSubmitted({0, "scale", {}, 100});
  s.OnTaskSubmitted({1, "scale", {}, 100});
  s.OnTaskEnded({0, "reused", 100.5});
  json j = json::parse(s.SnapshotJson(101));
  EXPECT_EQ(Op(j, "scale").at("done"), 1);
  EXPECT_EQ(Op(j, "scale").at("reused"), 1);
  EXPECT_EQ(Op(j, "scale").at("waiting"), 1);
}

// Ctrl-C: the running task's job is cancelled and the task with it; the
// page counts it as cancelled, not failed, and lists no failure (issue 36).
TEST(DashboardStateTest, ACancelledTaskIsCountedApartFromFailed) {
  DashboardState s;
  s.OnRunStarted(100, {"node1"});
  s.OnTaskSubmitted({0, "scale", {}, 100});
  s.OnJobStarted({7, 0, "scale", "node1", 101, false});
  JobRecord rec;
  rec.task = 0;
  rec.job = 7;
  rec.operation = "scale";
  rec.host = "node1";
  rec.started = 101;
  rec.ended = 102;
  rec.outcome = OutcomeClass::kCancelled;
  s.OnJobEnded(rec);
  s.OnTaskEnded({0, "cancelled", 102});
  s.OnRunEnded(102, RunStatus::kCancelled);
  json j = json::parse(s.SnapshotJson(103));
  EXPECT_EQ(j.at("status"), "cancelled");
  EXPECT_EQ(Op(j, "scale").at("cancelled"), 1);
  EXPECT_EQ(Op(j, "scale").at("failed"), 0);
  EXPECT_EQ(Op(j, "scale").at("waiting"), 0);
  EXPECT_EQ(Op(j, "scale").at("running"), 0);
  EXPECT_TRUE(j.at("failures").empty());
}

// The task stream's slot rows: two slots, one of them running a job 0.2 ms
// after another, show as two rows, not three (issue 36).
TEST(DashboardStateTest, ATwoSlotHostShowsTwoSlotRows) {
  DashboardState s;
  s.OnRunStarted(0, {"node1"});
  const std::pair<double, double> spans[] = {
      {0, 2}, {1, 3}, {3.0002, 5}, {2.5, 6}};
  for (TaskId t = 0; t < 4; ++t) {
    JobRecord rec;
    rec.task = t;
    rec.job = t + 1;
    rec.operation = "scale";
    rec.host = "node1";
    rec.started = spans[t].first;
    rec.ended = spans[t].second;
    s.OnJobEnded(rec);
  }
  json j = json::parse(s.SnapshotJson(7));
  EXPECT_EQ(j.at("hosts")[0].at("slots_seen"), 2);
  for (const json& a : j.at("stream")) EXPECT_LT(a.at("slot").get<int>(), 2);
}

// Prefetch on a 1-slot host: the job sent ahead is queued on the host,
// not running, until it takes the slot (issue 36: "running 2" beside
// "slots 1").
TEST(DashboardStateTest, APrefetchedJobIsQueuedOnItsHost) {
  DashboardState s;
  s.OnRunStarted(100, {"n1"});
  s.OnTaskSubmitted({0, "scale", {}, 100});
  s.OnTaskSubmitted({1, "scale", {}, 100});
  s.OnJobStarted({1, 0, "scale", "n1", 101, false, false, 1});
  s.OnJobStarted({2, 1, "scale", "n1", 101, false, /*queued=*/true, 1});
  json j = json::parse(s.SnapshotJson(101));
  json h = j.at("hosts")[0];
  EXPECT_EQ(h.at("running"), 1);
  EXPECT_EQ(h.at("queued"), 1);
  EXPECT_EQ(h.at("slots"), 1);
  EXPECT_EQ(Op(j, "scale").at("running"), 1);
  EXPECT_EQ(Op(j, "scale").at("waiting"), 1);

  JobRecord rec;
  rec.task = 0;
  rec.job = 1;
  rec.operation = "scale";
  rec.host = "n1";
  rec.started = 101;
  rec.ended = 103;
  s.OnJobEnded(rec);
  s.OnTaskEnded({0, "done", 103});
  s.OnJobRunning({2, 1, "scale", "n1", 103, false, false, 1});
  j = json::parse(s.SnapshotJson(103));
  h = j.at("hosts")[0];
  EXPECT_EQ(h.at("running"), 1);
  EXPECT_EQ(h.at("queued"), 0);
  EXPECT_EQ(Op(j, "scale").at("running"), 1);
  EXPECT_EQ(Op(j, "scale").at("waiting"), 0);

  // A queued job that ends (cancelled in the host's queue) never ran.
  s.OnTaskSubmitted({2, "scale", {}, 103});
  s.OnJobStarted({3, 2, "scale", "n1", 103, false, true, 1});
  rec.task = 2;
  rec.job = 3;
  rec.outcome = OutcomeClass::kCancelled;
  s.OnJobEnded(rec);
  h = json::parse(s.SnapshotJson(104)).at("hosts")[0];
  EXPECT_EQ(h.at("running"), 1);
  EXPECT_EQ(h.at("queued"), 0);
}

TEST(DashboardStateTest, HostEventsSetTheHostsState) {
  DashboardState s;
  s.OnRunStarted(0, {"node1"});
  const uint64_t before = s.version();
  RunEvent down("host_down", 5, 0, "node1");
  down.detail = "connection lost";
  s.OnEvent(down);
  EXPECT_GT(s.version(), before);
  json h = json::parse(s.SnapshotJson(6)).at("hosts")[0];
  EXPECT_EQ(h.at("state"), "down");
  EXPECT_EQ(h.at("why"), "connection lost");
  EXPECT_EQ(h.at("distrust"), 1);
  s.OnEvent(RunEvent("host_up", 7, 0, "node1"));
  s.OnEvent(RunEvent("host_down", 8, 0, "node1"));
  h = json::parse(s.SnapshotJson(9)).at("hosts")[0];
  EXPECT_EQ(h.at("distrust"), 2);
}

TEST(DashboardStateTest, HostsShowInfraFailuresAndQueueWait) {
  DashboardState s;
  s.OnRunStarted(0, {"batch", "idle"});
  JobRecord rec;
  rec.task = 0;
  rec.operation = "scale";
  rec.host = "batch";
  rec.submitted = 10;
  rec.started = 14;  // 4 s in the queue
  rec.ended = 15;
  s.OnJobEnded(rec);
  rec.job = 2;
  rec.submitted = 20;
  rec.started = 22;  // 2 s
  rec.ended = 23;
  rec.outcome = OutcomeClass::kInfra;
  s.OnJobEnded(rec);
  json hosts = json::parse(s.SnapshotJson(30)).at("hosts");
  json batch = hosts[0], idle = hosts[1];
  ASSERT_EQ(batch.at("host"), "batch");
  EXPECT_EQ(batch.at("infra"), 1);
  EXPECT_EQ(batch.at("distrust"), 0);  // only a lost host is charged
  EXPECT_DOUBLE_EQ(batch.at("queue_wait_mean_s").get<double>(), 3);
  EXPECT_DOUBLE_EQ(batch.at("queue_wait_last_s").get<double>(), 2);
  EXPECT_TRUE(idle.at("queue_wait_mean_s").is_null());
}

TEST(DashboardStateTest, FailuresKeepTheirLastError) {
  DashboardState s;
  s.OnRunStarted(0, {"node1"});
  s.OnTaskSubmitted({0, "blur", {}, 0});
  s.OnJobStarted({1, 0, "blur", "node1", 0, false});
  JobRecord rec;
  rec.task = 0;
  rec.operation = "blur";
  rec.host = "node1";
  rec.outcome = OutcomeClass::kApp;
  rec.error = "exit code 3";
  rec.log_dir = "/w/logs/job-1";
  s.OnJobEnded(rec);
  json f = json::parse(s.SnapshotJson(1)).at("failures");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].at("error"), "exit code 3");
  EXPECT_EQ(f[0].at("log_dir"), "/w/logs/job-1");
}

}  // namespace
}  // namespace gs
