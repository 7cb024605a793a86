#include "runtime/engine/master_files.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "tests/support/mem_file_system.h"

namespace gs {
namespace {

using testing::MemFileSystem;

// What the engine's waits answer: BringToMaster runs `bring` (Ok when
// unset); each call is counted.
struct FakeWaits {
  std::function<Status(VersionId)> bring;
  int brought = 0;
  int waited = 0;
  int wakes = 0;
};

class FakeSite : public MasterFiles::Site {
 public:
  explicit FakeSite(FakeWaits* w) : w_(*w) {}
  Status WaitVersion(MutexLock&, VersionId, const char*) override {
    ++w_.waited;
    return Status::Ok();
  }
  Status BringToMaster(MutexLock&, VersionId v) override {
    ++w_.brought;
    return w_.bring ? w_.bring(v) : Status::Ok();
  }
  void Wake() override { ++w_.wakes; }

 private:
  FakeWaits& w_;
};

// In /home/u/run: task t0_ writes a.dat (version v_). Host 0 keeps its
// own files.
class MasterFilesTest : public ::testing::Test {
 protected:
  MasterFilesTest() {
    auto host = std::make_unique<HostEntry>();
    host->name = "remote";
    host->shared = false;
    host->data_dir = "/scratch/data";
    hosts_.Add(std::move(host));
    places_.AddHost(false);
    FileParam w{"a.dat", false, true};
    t0_ = graph_.AddTask(0, &w, 1, "");
    v_ = graph_.accesses(t0_)[0].out;
    fs_.Put(kUser, "old");
  }

  void Finish() {
    std::vector<TaskId> ready;
    graph_.MarkDone(t0_, &ready);
    graph_.version(v_).on_master = true;
  }
  void Fail() {
    std::vector<TaskId> futile;
    graph_.MarkFailed(t0_, &futile);
  }
  void FinalizeAll() {
    MutexLock lock(&mu_);
    files_under_test_.FinalizeAll(lock);
  }
  bool HasNote(const std::string& part) const {
    for (const std::string& note : stats_.notes) {
      if (note.find(part) != std::string::npos) return true;
    }
    return false;
  }

  static constexpr const char* kUser = "/home/u/run/a.dat";
  const std::string cwd_ = "/home/u/run";
  MemFileSystem fs_;
  FileTable files_{cwd_};
  TaskGraph graph_{&files_};
  OperationTable ops_;
  HostSet hosts_{1};
  DataPlaces places_{cwd_ + "/.gsrt", files_, graph_, hosts_};
  RunNaming naming_{cwd_, files_, graph_, ops_, places_};
  RunStats stats_;
  FakeWaits waits_;
  Mutex mu_;
  MasterFiles files_under_test_{
      cwd_ + "/.gsrt", fs_,     files_,
      graph_,          places_, hosts_,
      naming_,         stats_,  std::make_unique<FakeSite>(&waits_)};
  TaskId t0_ = 0;
  VersionId v_ = 0;
};

TEST_F(MasterFilesTest, TheFinalVersionTakesTheUsersName) {
  Finish();
  fs_.Put(places_.VersionPath(v_), "new");
  FinalizeAll();
  EXPECT_EQ(fs_.Contents(kUser), "new");
  EXPECT_EQ(waits_.brought, 1);
  EXPECT_TRUE(stats_.notes.empty());
  EXPECT_EQ(stats_.lost_outputs, 0u);
}

TEST_F(MasterFilesTest, AFailedLastVersionLeavesTheUsersFileAsItWas) {
  Fail();
  FinalizeAll();
  EXPECT_EQ(fs_.Contents(kUser), "old");
  EXPECT_TRUE(HasNote("a.dat was not updated"));
  EXPECT_EQ(waits_.brought, 0);
}

TEST_F(MasterFilesTest, WhatTheProgramLastWroteItselfStandsIn) {
  // Written with GS_Open before t1 was to write it again, and t1 failed.
  const FileId f = graph_.version(v_).file;
  const VersionId mine = graph_.NewVersion(f, kMasterTask);
  std::vector<TaskId> ready;
  graph_.MarkAvailable(mine, &ready);
  fs_.Put(places_.VersionPath(mine), "mine");
  FileParam w{"a.dat", false, true};
  const TaskId t1 = graph_.AddTask(0, &w, 1, "");
  std::vector<TaskId> futile;
  graph_.MarkFailed(t1, &futile);
  Finish();  // t0's version is older than the master's
  FinalizeAll();
  EXPECT_EQ(fs_.Contents(kUser), "mine");
  EXPECT_TRUE(HasNote("holds what the program itself last wrote"));
}

TEST_F(MasterFilesTest, AVersionLostWhileFetchingIsMadeAgainAndFetched) {
  Finish();
  fs_.Put(places_.VersionPath(v_), "again");
  waits_.bring = [&](VersionId v) {
    if (waits_.brought > 1) return Status::Ok();
    graph_.version(v).state = VersionState::kPending;  // rewound
    return Status::Unavailable("host lost");
  };
  FinalizeAll();
  EXPECT_EQ(waits_.wakes, 1);
  EXPECT_EQ(waits_.waited, 1);
  EXPECT_EQ(waits_.brought, 2);
  EXPECT_EQ(fs_.Contents(kUser), "again");
}

TEST_F(MasterFilesTest, AVersionThatCannotBeFetchedIsNamedAsTheUserDoes) {
  Finish();
  const std::string remote = places_.PathOn(v_, 0);
  waits_.bring = [&](VersionId) {
    return Status::IoError("cannot read " + remote);
  };
  FinalizeAll();
  EXPECT_EQ(stats_.lost_outputs, 1u);
  ASSERT_EQ(stats_.notes.size(), 1u);
  EXPECT_NE(stats_.notes[0].find("cannot fetch the final version of a.dat"),
            std::string::npos)
      << stats_.notes[0];
  EXPECT_EQ(stats_.notes[0].find("/scratch/data"), std::string::npos)
      << stats_.notes[0];
  EXPECT_EQ(fs_.Contents(kUser), "old");
}

TEST_F(MasterFilesTest, AVersionThatCannotBePutInPlaceIsSaidLost) {
  Finish();  // its data never reached the master's data dir
  FinalizeAll();
  EXPECT_EQ(stats_.lost_outputs, 1u);
  EXPECT_TRUE(HasNote("cannot put the final version of a.dat in place"));
  EXPECT_TRUE(HasNote("it is lost"));
  EXPECT_EQ(fs_.Contents(kUser), "old");
}

TEST_F(MasterFilesTest, DescriptorsAreTakenOnceAndForgottenOnesClosed) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const FileId f = graph_.version(v_).file;
  const VersionId written = graph_.NewVersion(f, kMasterTask);
  MasterFiles::OpenFile entry;
  entry.write = written;
  files_under_test_.Opened(fds[0], entry);
  files_under_test_.Opened(fds[1], MasterFiles::OpenFile{});
  MasterFiles::OpenFile taken;
  ASSERT_TRUE(files_under_test_.TakeOpen(fds[1], &taken));
  EXPECT_FALSE(files_under_test_.TakeOpen(fds[1], &taken));
  ::close(fds[1]);
  files_under_test_.CloseForgotten();
  EXPECT_EQ(graph_.version(written).state, VersionState::kAvailable);
  EXPECT_TRUE(HasNote("1 files opened with GS_Open were not closed"));
  EXPECT_FALSE(files_under_test_.TakeOpen(fds[0], &taken));
  EXPECT_EQ(::close(fds[0]), -1) << "closed already";
}

}  // namespace
}  // namespace gs
