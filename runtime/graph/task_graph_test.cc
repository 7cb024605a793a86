#include "runtime/graph/task_graph.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace gs {
namespace {

FileParam In(std::string_view n) { return {n, true, false}; }
FileParam Out(std::string_view n) { return {n, false, true}; }
FileParam InOut(std::string_view n) { return {n, true, true}; }

class TaskGraphTest : public ::testing::Test {
 protected:
  TaskId Add(std::initializer_list<FileParam> params) {
    std::vector<FileParam> v(params);
    return graph_.AddTask(0, v.data(), static_cast<int>(v.size()), "");
  }
  std::vector<TaskId> Done(TaskId t) {
    std::vector<TaskId> ready;
    graph_.MarkDone(t, &ready);
    return ready;
  }
  TaskState State(TaskId t) { return graph_.task(t).state; }

  FileTable files_{"/work"};
  TaskGraph graph_{&files_};
};

TEST_F(TaskGraphTest, ReadOfUntouchedFileIsReady) {
  TaskId t = Add({In("a"), Out("b")});
  EXPECT_EQ(State(t), TaskState::kReady);
  EXPECT_EQ(graph_.version(graph_.accesses(t)[0].in).number, 0u);
}

TEST_F(TaskGraphTest, ReadAfterWriteIsAnEdge) {
  TaskId w = Add({Out("x")});
  TaskId r = Add({In("x"), Out("y")});
  EXPECT_EQ(State(w), TaskState::kReady);
  EXPECT_EQ(State(r), TaskState::kWaiting);
  EXPECT_EQ(graph_.version(graph_.accesses(r)[0].in).producer, w);
  EXPECT_EQ(Done(w), std::vector<TaskId>{r});
  EXPECT_EQ(State(r), TaskState::kReady);
}

TEST_F(TaskGraphTest, WriteAfterReadIsNoEdge) {
  TaskId r = Add({In("x"), Out("y")});
  TaskId w = Add({Out("x")});
  EXPECT_EQ(State(r), TaskState::kReady);
  EXPECT_EQ(State(w), TaskState::kReady);
  // Renaming: the writer makes a new version; the reader keeps version 0.
  EXPECT_NE(graph_.accesses(r)[0].in, graph_.accesses(w)[0].out);
  EXPECT_EQ(graph_.version(graph_.accesses(w)[0].out).number, 1u);
}

TEST_F(TaskGraphTest, WriteAfterWriteIsNoEdge) {
  TaskId a = Add({Out("scratch")});
  TaskId b = Add({Out("scratch")});
  EXPECT_EQ(State(a), TaskState::kReady);
  EXPECT_EQ(State(b), TaskState::kReady);
  VersionId va = graph_.accesses(a)[0].out;
  VersionId vb = graph_.accesses(b)[0].out;
  EXPECT_NE(va, vb);
  EXPECT_EQ(files_.latest(files_.Intern("scratch")), vb);
}

TEST_F(TaskGraphTest, ScratchReuseAcrossIterationsRunsInParallel) {
  // for i: produce(scratch); consume(scratch, out_i)
  std::vector<TaskId> producers, consumers;
  std::vector<std::string> outs = {"o0", "o1", "o2"};
  for (int i = 0; i < 3; ++i) {
    producers.push_back(Add({Out("scratch")}));
    consumers.push_back(Add({In("scratch"), Out(outs[i])}));
  }
  for (TaskId p : producers) EXPECT_EQ(State(p), TaskState::kReady);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(graph_.version(graph_.accesses(consumers[i])[0].in).producer,
              producers[i]);
  }
  // Finishing the last producer readies only its own consumer.
  EXPECT_EQ(Done(producers[2]), std::vector<TaskId>{consumers[2]});
  EXPECT_EQ(State(consumers[0]), TaskState::kWaiting);
}

TEST_F(TaskGraphTest, InOutChainsVersions) {
  TaskId a = Add({InOut("acc")});
  TaskId b = Add({InOut("acc")});
  EXPECT_EQ(State(a), TaskState::kReady);
  EXPECT_EQ(State(b), TaskState::kWaiting);
  EXPECT_EQ(graph_.accesses(b)[0].in, graph_.accesses(a)[0].out);
  EXPECT_EQ(Done(a), std::vector<TaskId>{b});
}

TEST_F(TaskGraphTest, SameFileReadAndWrittenReadsOldVersion) {
  TaskId t = Add({Out("f"), In("f")});
  EXPECT_EQ(State(t), TaskState::kReady);
  EXPECT_EQ(graph_.version(graph_.accesses(t)[1].in).number, 0u);
}

TEST_F(TaskGraphTest, SpellingsOfOnePathAreOneFile) {
  TaskId w = Add({Out("dir/../x")});
  TaskId r = Add({In("/work/x")});
  EXPECT_EQ(State(r), TaskState::kWaiting);
  EXPECT_EQ(graph_.version(graph_.accesses(r)[0].in).producer, w);
}

TEST_F(TaskGraphTest, FailureMakesDescendantsFutileAndSparesOthers) {
  TaskId a = Add({Out("x")});
  TaskId b = Add({In("x"), Out("y")});
  TaskId c = Add({In("y"), Out("z")});
  TaskId d = Add({Out("w")});
  std::vector<TaskId> futile;
  graph_.MarkFailed(a, &futile);
  std::sort(futile.begin(), futile.end());
  EXPECT_EQ(futile, (std::vector<TaskId>{b, c}));
  EXPECT_EQ(State(a), TaskState::kFailed);
  EXPECT_EQ(State(c), TaskState::kFutile);
  EXPECT_EQ(State(d), TaskState::kReady);
  // A later reader of a lost version is futile at once.
  TaskId e = Add({In("z")});
  EXPECT_EQ(State(e), TaskState::kFutile);
}

TEST_F(TaskGraphTest, SupersededVersionIsGarbageOnceRead) {
  TaskId a = Add({Out("x")});
  TaskId b = Add({In("x"), Out("y")});
  Add({Out("x")});  // supersedes a's version
  Done(a);
  EXPECT_TRUE(graph_.TakeGarbage().empty());  // b still reads it
  Done(b);
  std::vector<VersionId> garbage = graph_.TakeGarbage();
  ASSERT_EQ(garbage.size(), 1u);
  EXPECT_EQ(garbage[0], graph_.accesses(a)[0].out);
}

TEST_F(TaskGraphTest, UsersOwnFileIsNeverGarbage) {
  TaskId r = Add({In("x")});
  Add({Out("x")});
  Done(r);
  EXPECT_TRUE(graph_.TakeGarbage().empty());
}

TEST_F(TaskGraphTest, ScalarsAreKeptPerTask) {
  FileParam p = Out("x");
  TaskId t0 = graph_.AddTask(0, &p, 1, std::string_view("1\0abc\0", 6));
  TaskId t1 = graph_.AddTask(0, &p, 1, std::string_view("2\0", 2));
  EXPECT_EQ(graph_.scalars(t0), std::string_view("1\0abc\0", 6));
  EXPECT_EQ(graph_.scalars(t1), std::string_view("2\0", 2));
}

TEST_F(TaskGraphTest, ReadersOfOneVersionWaitAndBecomeReadyInCallOrder) {
  TaskId w = Add({Out("x")});
  TaskId r1 = Add({In("x"), Out("a")});
  TaskId r2 = Add({In("x"), Out("b")});
  TaskId r3 = Add({In("x"), Out("c")});
  VersionId x = graph_.accesses(w)[0].out;
  EXPECT_EQ(graph_.waiting(x), (std::vector<TaskId>{r1, r2, r3}));
  graph_.RemoveWaiting(x, r2);
  graph_.AddWaiting(x, r2);  // as the engine requeues a task
  EXPECT_EQ(Done(w), (std::vector<TaskId>{r1, r3, r2}));
  EXPECT_TRUE(graph_.waiting(x).empty());
}

TEST_F(TaskGraphTest, ManyTasksKeepTheirAccessesAndVersions) {
  // Past the tables' first 2 MB (stable_array.h): nothing is lost growing.
  const int n = 60'000;
  for (int i = 0; i < n; ++i) {
    Add({InOut("acc"), In("in" + std::to_string(i % 7))});
  }
  ASSERT_EQ(graph_.num_tasks(), static_cast<size_t>(n));
  for (TaskId t : {0, 1, 30'000, n - 1}) {
    const FileAccess* acc = graph_.accesses(t);
    EXPECT_EQ(graph_.version(acc[0].out).producer, t);
    EXPECT_EQ(graph_.version(acc[0].out).number, t + 1);
    EXPECT_EQ(files_.path(graph_.version(acc[1].in).file),
              "/work/in" + std::to_string(t % 7));
    if (t > 0) {
      EXPECT_EQ(graph_.version(acc[0].in).producer, t - 1);
      EXPECT_EQ(graph_.waiting(acc[0].in), std::vector<TaskId>{t});
    }
  }
}

}  // namespace
}  // namespace gs
