#include "runtime/engine/data_places.h"

#include <gtest/gtest.h>

#include "tests/support/recording_adapter.h"

namespace gs {
namespace {

using testing::RecordingAdapter;

// Two hosts: "shared" sees the master's files, "remote" keeps its own.
class DataPlacesTest : public ::testing::Test {
 protected:
  DataPlacesTest() {
    AddHost("shared", true);
    AddHost("remote", false);
    // t0 writes out.dat (version 1); t1 reads it.
    FileParam w{"out.dat", false, true};
    t0_ = graph_.AddTask(0, &w, 1, "");
    FileParam r{"out.dat", true, false};
    t1_ = graph_.AddTask(0, &r, 1, "");
    v_ = graph_.accesses(t0_)[0].out;
    // Made by a task that has not run: its data is nowhere yet.
    graph_.version(v_).on_master = false;
  }

  void AddHost(const std::string& name, bool shared) {
    auto entry = std::make_unique<HostEntry>();
    entry->name = name;
    entry->shared = shared;
    entry->data_dir = "/scratch/" + name + "/data";
    auto adapter = std::make_unique<RecordingAdapter>();
    adapter->answers.expected_start_delay = 0;
    entry->adapter = std::move(adapter);
    hosts_.Add(std::move(entry));
    places_.AddHost(shared);
  }

  FileTable files_{"/home/u/run"};
  TaskGraph graph_{&files_};
  HostSet hosts_{1};
  DataPlaces places_{"/home/u/run/.gsrt", files_, graph_, hosts_};
  TaskId t0_ = 0, t1_ = 0;
  VersionId v_ = 0;
};

TEST_F(DataPlacesTest, NamesKeepTheUsersBaseNameUnderTheDataDir) {
  const std::string name = std::to_string(v_) + "-out.dat";
  EXPECT_EQ(places_.VersionFileName(v_), name);
  EXPECT_EQ(places_.VersionPath(v_), "/home/u/run/.gsrt/data/" + name);
  EXPECT_EQ(places_.PathOn(v_, 0), places_.VersionPath(v_));
  EXPECT_EQ(places_.PathOn(v_, 1), "/scratch/remote/data/" + name);
}

TEST_F(DataPlacesTest, CopiesAreRememberedPerHostAndDroppedOneByOne) {
  EXPECT_FALSE(places_.HasCopy(v_, 1));
  places_.AddCopy(v_, 1);
  EXPECT_TRUE(places_.HasCopy(v_, 1));
  EXPECT_TRUE(places_.HasRemoteCopy(v_));
  EXPECT_EQ(places_.FileNamesOn(1),
            std::vector<std::string>{places_.VersionFileName(v_)});
  EXPECT_FALSE(places_.DropCopy(v_, 1)) << "no other copy is left";
  EXPECT_FALSE(places_.HasRemoteCopy(v_));
  places_.SetOnlyCopy(v_, 1);
  EXPECT_EQ(places_.TakeCopies(v_), std::vector<HostId>{1});
  EXPECT_TRUE(places_.VersionsWithCopies().empty());
}

TEST_F(DataPlacesTest, ASharedHostHasWhatTheMasterHas) {
  EXPECT_FALSE(places_.HasCopy(v_, 0));
  graph_.version(v_).on_master = true;
  EXPECT_TRUE(places_.HasCopy(v_, 0));
  EXPECT_FALSE(places_.HasCopy(v_, 1));
}

TEST_F(DataPlacesTest, LaterRequestsJoinATransferUnderWay) {
  std::vector<std::string> told;
  EXPECT_TRUE(
      places_.JoinTransfer(v_, 1, [&](Status) { told.push_back("a"); }));
  EXPECT_FALSE(
      places_.JoinTransfer(v_, 1, [&](Status) { told.push_back("b"); }));
  EXPECT_TRUE(places_.JoinTransfer(v_, kNoHost, [&](Status) {}));
  EXPECT_EQ(places_.transfers_in_flight(), 2u);
  for (auto& done : places_.EndTransfer(v_, 1)) done(Status::Ok());
  EXPECT_EQ(told, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(places_.transfers_in_flight(), 1u);
  EXPECT_TRUE(places_.EndTransfer(v_, 1).empty());
}

TEST_F(DataPlacesTest, PredictionCountsTwoHopsFromAnotherHost) {
  graph_.version(v_).size = 1000;
  places_.AddCopy(v_, 1);
  // Reading on the shared host: up from the remote copy, then the shared
  // host's own link.
  places_.ObserveTransfer(0, 1000, 2.0);
  places_.ObserveTransfer(1, 1000, 3.0);
  const Seconds predicted = places_.PredictTransfer(t1_, 0);
  EXPECT_DOUBLE_EQ(predicted,
                   places_.LinkTime(1, 1000) + places_.LinkTime(0, 1000));
  EXPECT_GT(predicted, 0);
  // The remote host has it: nothing to move.
  EXPECT_DOUBLE_EQ(places_.PredictTransfer(t1_, 1), 0);
}

}  // namespace
}  // namespace gs
