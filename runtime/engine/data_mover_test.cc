#include "runtime/engine/data_mover.h"

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <memory>
#include <string>
#include <vector>

#include "adapters/adapter_defaults.h"
#include "runtime/base/messages.h"
#include "runtime/graph/operation_table.h"
#include "tests/support/fake_clock.h"
#include "tests/support/mem_file_system.h"

namespace gs {
namespace {

// Records transfers and holds each until the test ends it.
class TransferAdapter : public AdapterDefaults {
 public:
  std::string_view kind() const override { return "transfer"; }
  Status Connect() override { return Status::Ok(); }
  void Shutdown() override {}
  void Submit(JobSpec, DoneCallback) override {}
  void Cancel(JobId) override {}
  int FreeSlots() const override { return 1; }
  bool connected() const override { return answers; }
  bool shares_master_files() const override { return false; }
  std::string work_dir() const override { return "/host"; }
  void Put(std::string from, std::string to, StatusCallback done) override {
    calls.push_back("Put " + from + " " + to);
    pending.push_back(std::move(done));
  }
  void Get(std::string from, std::string to, StatusCallback done) override {
    calls.push_back("Get " + from + " " + to);
    pending.push_back(std::move(done));
  }
  void Remove(std::string path) override { calls.push_back("Remove " + path); }

  // Ends the oldest transfer under way with `s`.
  void End(Status s) {
    ASSERT_FALSE(pending.empty());
    StatusCallback done = std::move(pending.front());
    pending.erase(pending.begin());
    done(s);
  }

  bool answers = true;
  std::vector<std::string> calls;
  std::vector<StatusCallback> pending;
};

class FakeSite : public DataMover::Site {
 public:
  struct Log {
    int transfers_changed = 0;
    int fetched = 0;
    std::vector<std::string> lost;  // "host 1: why", "copy v on 1: why"
    bool keep_collected = false;
    std::vector<VersionId> kept;
  };
  explicit FakeSite(Log* log) : log_(*log) {}
  void TransfersChanged() override { ++log_.transfers_changed; }
  void HostLost(HostId host, const std::string& why) override {
    log_.lost.push_back("host " + std::to_string(host) + ": " + why);
  }
  void CopyLost(VersionId v, HostId host, const std::string& why) override {
    log_.lost.push_back("copy " + std::to_string(v) + " on " +
                        std::to_string(host) + ": " + why);
  }
  void Fetched() override { ++log_.fetched; }
  bool KeepsCollected(VersionId v) override {
    if (log_.keep_collected) log_.kept.push_back(v);
    return log_.keep_collected;
  }

 private:
  Log& log_;
};

// Two hosts keeping their own files. t0 writes a.dat (version va_) and has
// finished on host 0; in.dat is the user's file on the master (vin_).
class DataMoverTest : public ::testing::Test {
 protected:
  DataMoverTest() {
    for (int h = 0; h < 2; ++h) {
      auto adapter = std::make_unique<TransferAdapter>();
      adapters_.push_back(adapter.get());
      auto entry = std::make_unique<HostEntry>();
      entry->name = "n" + std::to_string(h);
      entry->shared = false;
      entry->data_dir = "/host/data";
      entry->adapter = std::move(adapter);
      places_.AddHost(false);
      hosts_.Add(std::move(entry));
    }
    FileParam w{"a.dat", false, true};
    t0_ = graph_.AddTask(0, &w, 1, "");
    FileParam r{"in.dat", true, false};
    graph_.AddTask(0, &r, 1, "");
    va_ = graph_.accesses(t0_)[0].out;
    vin_ = graph_.accesses(1)[0].in;
    std::vector<TaskId> ready;
    graph_.MarkDone(t0_, &ready);
    graph_.version(va_).on_master = false;
    places_.SetOnlyCopy(va_, 0);
    mover_.set_loop(&io_, &clock_);
  }

  // Runs what the mover posted.
  void RunPosted() {
    io_.restart();
    io_.run();
  }

  Mutex mu_;
  boost::asio::io_context io_;
  FakeClock clock_{100};
  testing::MemFileSystem fs_;
  RecordingMessages messages_;
  FileTable files_{"/work"};
  TaskGraph graph_{&files_};
  OperationTable ops_;
  HostSet hosts_{/*rtt_bound=*/1};
  RunRecorder recorder_{graph_, ops_, messages_};
  FakeSite::Log log_;
  DataMover mover_{
      mu_,    fs_,    "/work/gsrt", files_,
      graph_, hosts_, recorder_,    std::make_unique<FakeSite>(&log_)};
  DataPlaces& places_ = mover_.places();
  std::vector<TransferAdapter*> adapters_;
  TaskId t0_;
  VersionId va_, vin_;
};

TEST_F(DataMoverTest, AFileOnTheMasterIsPutOnceForEveryoneWaiting) {
  fs_.Put(places_.VersionPath(vin_), "12345");
  std::vector<Status> done;
  mover_.EnsureOnHost(vin_, 1, [&](Status s) { done.push_back(s); });
  mover_.EnsureOnHost(vin_, 1, [&](Status s) { done.push_back(s); });
  ASSERT_EQ(adapters_[1]->calls.size(), 1u) << "the second joins the first";
  EXPECT_EQ(adapters_[1]->calls[0],
            "Put " + places_.VersionPath(vin_) + " " + places_.PathOn(vin_, 1));
  EXPECT_EQ(graph_.version(vin_).size, 5u) << "the user's file is measured";
  clock_.Advance(2);
  adapters_[1]->End(Status::Ok());
  ASSERT_EQ(done.size(), 2u);
  EXPECT_TRUE(done[0].ok() && done[1].ok());
  MutexLock lock(&mu_);
  EXPECT_TRUE(places_.HasCopy(vin_, 1));
  EXPECT_GE(log_.transfers_changed, 2);
}

TEST_F(DataMoverTest, AUserFileTheMasterLacksIsNotSentAndTheJobStartsWithout) {
  // An inout file its first task creates (appending to it) is absent before
  // the run: the host starts the job without it, as the master would.
  Status result = Status::Internal("not called");
  mover_.EnsureOnHost(vin_, 1, [&](Status s) { result = s; });
  EXPECT_TRUE(adapters_[1]->calls.empty()) << "nothing to put";
  RunPosted();
  EXPECT_TRUE(result.ok()) << result.message();
  MutexLock lock(&mu_);
  EXPECT_FALSE(places_.HasCopy(vin_, 1)) << "no copy was made";
}

TEST_F(DataMoverTest, AVersionOnlyAnotherHostHoldsGoesThroughTheMaster) {
  Status result = Status::Internal("not called");
  mover_.EnsureOnHost(va_, 1, [&](Status s) { result = s; });
  ASSERT_EQ(adapters_[0]->calls.size(), 1u);
  EXPECT_EQ(adapters_[0]->calls[0].rfind("Get ", 0), 0u);
  EXPECT_TRUE(adapters_[1]->calls.empty()) << "not before it is on the master";
  adapters_[0]->End(Status::Ok());
  EXPECT_TRUE(graph_.version(va_).on_master);
  EXPECT_EQ(log_.fetched, 1);
  ASSERT_EQ(adapters_[1]->calls.size(), 1u);
  EXPECT_EQ(adapters_[1]->calls[0].rfind("Put ", 0), 0u);
  adapters_[1]->End(Status::Ok());
  EXPECT_TRUE(result.ok()) << result.message();
}

TEST_F(DataMoverTest, AFailedFetchFromAHostThatAnswersLosesTheCopyOnly) {
  Status result;
  mover_.FetchToMaster(va_, [&](Status s) { result = s; });
  adapters_[0]->End(Status::IoError("no such file"));
  EXPECT_FALSE(result.ok());
  ASSERT_EQ(log_.lost.size(), 1u);
  EXPECT_EQ(log_.lost[0],
            "copy " + std::to_string(va_) + " on 0: no such file");
  EXPECT_FALSE(graph_.version(va_).on_master);
}

TEST_F(DataMoverTest, AFailedFetchFromAHostThatIsGoneLosesTheHost) {
  adapters_[0]->answers = false;
  mover_.FetchToMaster(va_, [](Status) {});
  adapters_[0]->End(Status::Unavailable("connection reset"));
  ASSERT_EQ(log_.lost.size(), 1u);
  EXPECT_EQ(log_.lost[0].rfind("host 0: ", 0), 0u) << log_.lost[0];
}

TEST_F(DataMoverTest, StagingEndsOnceWithTheFirstError) {
  fs_.Put(places_.VersionPath(vin_), "x");
  int calls = 0;
  Status result;
  mover_.Stage(1, {vin_, va_}, [&](Status s) {
    ++calls;
    result = s;
  });
  adapters_[1]->End(Status::IoError("disk full"));  // in.dat's Put
  adapters_[0]->End(Status::Ok());                  // a.dat's Get
  adapters_[1]->End(Status::Ok());                  // a.dat's Put
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(result.message(), "disk full");
}

TEST_F(DataMoverTest, NoHostToFetchFromIsAnErrorOnTheLoop) {
  hosts_[0]->usable = false;
  Status result = Status::Internal("not called");
  mover_.FetchToMaster(va_, [&](Status s) { result = s; });
  EXPECT_EQ(result.code(), Status::Code::kInternal)
      << "not before the loop runs";
  RunPosted();
  EXPECT_EQ(result.code(), Status::Code::kUnavailable);
}

TEST_F(DataMoverTest, GarbageIsRemovedOnTheMasterAndThroughAdapters) {
  // t2 supersedes a.dat; t3 reads a.dat and finishes: a.dat's first
  // version is garbage.
  FileParam reader{"a.dat", true, false};
  TaskId t3 = graph_.AddTask(0, &reader, 1, "");
  FileParam writer{"a.dat", false, true};
  graph_.AddTask(0, &writer, 1, "");
  graph_.version(va_).on_master = true;  // fetched once
  std::vector<TaskId> ready;
  graph_.MarkDone(t3, &ready);
  std::vector<std::string> doomed;
  {
    MutexLock lock(&mu_);
    mover_.CollectGarbage(mu_, &doomed);
  }
  EXPECT_EQ(doomed, std::vector<std::string>{places_.VersionPath(va_)});
  EXPECT_FALSE(graph_.version(va_).on_master);
  EXPECT_TRUE(adapters_[0]->calls.empty()) << "removed on the loop";
  RunPosted();
  ASSERT_EQ(adapters_[0]->calls.size(), 1u);
  EXPECT_EQ(adapters_[0]->calls[0], "Remove " + places_.PathOn(va_, 0));
}

TEST_F(DataMoverTest, GarbageTheJournalKeepsIsLeftInPlace) {
  log_.keep_collected = true;
  FileParam reader{"a.dat", true, false};
  TaskId t3 = graph_.AddTask(0, &reader, 1, "");
  FileParam writer{"a.dat", false, true};
  graph_.AddTask(0, &writer, 1, "");
  std::vector<TaskId> ready;
  graph_.MarkDone(t3, &ready);
  std::vector<std::string> doomed;
  {
    MutexLock lock(&mu_);
    mover_.CollectGarbage(mu_, &doomed);
  }
  EXPECT_TRUE(doomed.empty());
  EXPECT_EQ(log_.kept, std::vector<VersionId>{va_});
  RunPosted();
  EXPECT_TRUE(adapters_[0]->calls.empty());
}

}  // namespace
}  // namespace gs
