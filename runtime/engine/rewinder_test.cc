#include "runtime/engine/rewinder.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace gs {
namespace {

// Records what the rewinder asks of the engine; hosts are given by name
// and whether they share the master's files.
class FakeSite : public Rewinder::Site {
 public:
  struct Log {
    std::vector<TaskId> requeued;
    std::vector<TaskId> unready;
    int wakes = 0;
    int transfers_changed = 0;
    std::vector<std::string> events;  // "host: detail"
  };
  FakeSite(std::vector<std::pair<std::string, bool>> hosts, Log* log)
      : hosts_(std::move(hosts)), log_(*log) {}

  size_t NumHosts() const override { return hosts_.size(); }
  std::string HostName(HostId h) const override { return hosts_[h].first; }
  bool SharesMasterFiles(HostId h) const override { return hosts_[h].second; }
  void Requeue(TaskId t) override { log_.requeued.push_back(t); }
  void Unready(TaskId t) override { log_.unready.push_back(t); }
  void Wake() override { ++log_.wakes; }
  void TransfersChanged() override { ++log_.transfers_changed; }
  void Rewound(const std::string& host, const std::string& detail) override {
    log_.events.push_back(host + ": " + detail);
  }

 private:
  std::vector<std::pair<std::string, bool>> hosts_;
  Log& log_;
};

// Hosts: 0 "remote" and 1 "other" keep their own files, 2 "shared" sees
// the master's. t0 writes a.dat (version va_) and has finished; t1 reads
// it and is ready.
class RewinderTest : public ::testing::Test {
 protected:
  RewinderTest() {
    for (int i = 0; i < 3; ++i) places_.AddHost(i == 2);
    FileParam w{"a.dat", false, true};
    t0_ = graph_.AddTask(0, &w, 1, "");
    FileParam r{"a.dat", true, false};
    t1_ = graph_.AddTask(0, &r, 1, "");
    va_ = graph_.accesses(t0_)[0].out;
  }

  // Makes the rewinder in `mode`; t0 finished on `host`.
  Rewinder& Make(Rewinder::Mode mode, HostId t0_host) {
    rewinder_ = std::make_unique<Rewinder>(
        mode, graph_, files_, places_, stats_, messages_,
        std::make_unique<FakeSite>(
            std::vector<std::pair<std::string, bool>>{
                {"remote", false}, {"other", false}, {"shared", true}},
            &log_));
    std::vector<TaskId> ready;
    graph_.MarkDone(t0_, &ready);
    stats_.done = 1;
    const bool shared = t0_host == 2;
    graph_.version(va_).on_master = shared;
    places_.SetOnlyCopy(va_, shared ? kNoHost : t0_host);
    rewinder_->SetHostOf(t0_, t0_host);
    return *rewinder_;
  }

  FileTable files_{"/home/u/run"};
  TaskGraph graph_{&files_};
  HostSet hosts_{1};
  DataPlaces places_{"/home/u/run/.gsrt", files_, graph_, hosts_};
  RunStats stats_;
  RecordingMessages messages_;
  FakeSite::Log log_;
  Mutex mu_;
  std::unique_ptr<Rewinder> rewinder_;
  TaskId t0_ = 0, t1_ = 0;
  VersionId va_ = 0;
};

TEST_F(RewinderTest, ModesAreKnownByName) {
  EXPECT_EQ(Rewinder::ParseMode("gtp-c-r"), Rewinder::Mode::kGtpCR);
  EXPECT_EQ(Rewinder::ParseMode("gtp-r"), Rewinder::Mode::kGtpR);
  EXPECT_EQ(Rewinder::ParseMode("restart"), Rewinder::Mode::kRestart);
  EXPECT_EQ(Rewinder::ParseMode("gtp"), std::nullopt);
}

TEST_F(RewinderTest, LosingTheOnlyCopyRewindsItsProducerAndItsReaderWaits) {
  Rewinder& rewinder = Make(Rewinder::Mode::kGtpCR, 0);
  ASSERT_EQ(graph_.task(t1_).state, TaskState::kReady);
  {
    MutexLock lock(&mu_);
    rewinder.HostLost(mu_, 0, "connection reset");
  }
  // The producer runs again, then its reader is made to wait for it.
  EXPECT_EQ(log_.requeued, (std::vector<TaskId>{t0_, t1_}));
  EXPECT_EQ(log_.unready, std::vector<TaskId>{t1_});
  EXPECT_EQ(graph_.version(va_).state, VersionState::kPending);
  EXPECT_TRUE(places_.Holders(va_).empty());
  EXPECT_EQ(log_.wakes, 1);
  EXPECT_EQ(stats_.done, 0u);
  EXPECT_EQ(stats_.hosts_lost, 1u);
  EXPECT_EQ(stats_.rewound_tasks, 1u);
  ASSERT_EQ(stats_.notes.size(), 1u);
  EXPECT_NE(stats_.notes[0].find("host remote was lost (connection reset)"),
            std::string::npos)
      << stats_.notes[0];
  ASSERT_EQ(log_.events.size(), 1u);
  EXPECT_EQ(log_.events[0].rfind("remote: ", 0), 0u) << log_.events[0];
  EXPECT_TRUE(messages_.Has(MessageKind::kHostEvent, "1 task run again, "))
      << messages_.AllText();
  // The paper's terms (RT, LR) stay in docs/.
  EXPECT_EQ(messages_.AllText().find("(RT)"), std::string::npos);
  EXPECT_EQ(stats_.notes[0].find("(LR)"), std::string::npos);
}

TEST_F(RewinderTest, ACopyOnAnotherHostSparesTheProducer) {
  Rewinder& rewinder = Make(Rewinder::Mode::kGtpCR, 0);
  places_.AddCopy(va_, 1);
  {
    MutexLock lock(&mu_);
    rewinder.HostLost(mu_, 0, "gone");
  }
  EXPECT_TRUE(log_.requeued.empty());
  EXPECT_EQ(places_.Holders(va_), std::vector<HostId>{1});
  EXPECT_EQ(graph_.version(va_).state, VersionState::kAvailable);
  EXPECT_EQ(stats_.done, 1u);
  EXPECT_EQ(stats_.hosts_lost, 1u);
  EXPECT_EQ(stats_.rewound_tasks, 0u);
  EXPECT_TRUE(log_.events.empty());  // nothing rewound: no event
  EXPECT_EQ(log_.wakes, 0);
}

TEST_F(RewinderTest, ALostCopyWithAnotherLeftIsOnlyDropped) {
  Rewinder& rewinder = Make(Rewinder::Mode::kGtpCR, 0);
  places_.AddCopy(va_, 1);
  {
    MutexLock lock(&mu_);
    rewinder.CopyLost(mu_, va_, 0, "unreadable");
  }
  EXPECT_EQ(places_.Holders(va_), std::vector<HostId>{1});
  EXPECT_EQ(log_.transfers_changed, 1);
  EXPECT_TRUE(log_.requeued.empty());
  EXPECT_TRUE(stats_.notes.empty());
}

TEST_F(RewinderTest, ALostOnlyCopyRewindsItsProducerButNoHostIsLost) {
  Rewinder& rewinder = Make(Rewinder::Mode::kGtpCR, 0);
  {
    MutexLock lock(&mu_);
    rewinder.CopyLost(mu_, va_, 0, "missing");
  }
  EXPECT_EQ(log_.requeued, (std::vector<TaskId>{t0_, t1_}));
  EXPECT_EQ(stats_.hosts_lost, 0u);
  EXPECT_EQ(stats_.rewound_tasks, 1u);
  ASSERT_EQ(stats_.notes.size(), 1u);
  EXPECT_NE(stats_.notes[0].find("the copy of /home/u/run/a.dat on remote "
                                 "was lost (missing)"),
            std::string::npos)
      << stats_.notes[0];
}

TEST_F(RewinderTest, OutputsWithTheMasterSurviveALostHostUnlessRestarting) {
  // t0 ran on the host sharing the master's files: its output is the
  // master's, which a lost host does not take away...
  Rewinder& kept = Make(Rewinder::Mode::kGtpCR, 2);
  {
    MutexLock lock(&mu_);
    kept.HostLost(mu_, 2, "gone");
  }
  EXPECT_TRUE(log_.requeued.empty());
  EXPECT_EQ(graph_.version(va_).state, VersionState::kAvailable);
}

TEST_F(RewinderTest, RestartCountsEveryFinishedResultLost) {
  Rewinder& restart = Make(Rewinder::Mode::kRestart, 2);
  {
    MutexLock lock(&mu_);
    restart.HostLost(mu_, 2, "gone");
  }
  EXPECT_EQ(log_.requeued, (std::vector<TaskId>{t0_, t1_}));
  EXPECT_EQ(graph_.version(va_).state, VersionState::kPending);
}

TEST_F(RewinderTest, RemembersWhereTasksRanForEveryTaskOfTheGraph) {
  Rewinder& rewinder = Make(Rewinder::Mode::kGtpCR, 1);
  ASSERT_EQ(rewinder.task_hosts().size(), graph_.num_tasks());
  EXPECT_EQ(rewinder.task_hosts()[t0_], 1u);
  EXPECT_EQ(rewinder.task_hosts()[t1_], kNoHost);
  rewinder.SetHostOf(t1_, 0);
  EXPECT_EQ(rewinder.task_hosts()[t1_], 0u);
}

}  // namespace
}  // namespace gs
