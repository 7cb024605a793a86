// Where versions live and what is left at GS_Off, checked on an in-memory
// file system: the engine's own file operations go through the FileSystem
// seam (EngineOptions::hooks.file_system) and the adapter below runs its jobs
// in the same MemFileSystem, so no test here touches the disk.
#include <gtest/gtest.h>

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <mutex>

#include "adapters/adapter_defaults.h"
#include "runtime/engine/engine.h"
#include "tests/support/fake_operations.h"
#include "tests/support/mem_file_system.h"

namespace gs {
namespace {

using testing::MemFileSystem;
using testing::SubmitConsume;
using testing::SubmitProduce;

const gs_param_desc kFailParams[] = {{"out", GS_TYPE_FILE, GS_DIR_OUT}};
// fail(out File): exits 3 without writing its output.
const gs_operation kFail = {"fail", GS_TYPE_VOID, 1, kFailParams, 0, 0, 0};

constexpr char kCwd[] = "/home/u/run";
constexpr char kData[] = "/home/u/run/.gsrt/data";

// Counts what the engine removes and renames, before GS_Off removes the
// whole data dir.
class RecordingFileSystem : public MemFileSystem {
 public:
  Status Remove(const std::string& path) override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      removed_.push_back(path);
    }
    return MemFileSystem::Remove(path);
  }
  Status Rename(const std::string& from, const std::string& to) override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      renamed_.push_back({from, to});
    }
    return MemFileSystem::Rename(from, to);
  }
  std::vector<std::string> removed() {
    std::lock_guard<std::mutex> lock(mu_);
    return removed_;
  }
  std::vector<std::pair<std::string, std::string>> renamed() {
    std::lock_guard<std::mutex> lock(mu_);
    return renamed_;
  }

 private:
  std::mutex mu_;
  std::vector<std::string> removed_;
  std::vector<std::pair<std::string, std::string>> renamed_;
};

// What the hosts did, for the test thread.
struct MemLog {
  std::mutex mu;
  std::vector<std::pair<std::string, std::string>> puts, gets;
  std::vector<std::string> removes;
  std::vector<std::string> cancelled;  // operations of cancelled jobs
};

// Runs jobs in a MemFileSystem: each output holds "op(scalars,[inputs],)",
// as the scripted FakeAdapter writes. With a `remote` dir the host does not
// share the master's files: its versions are under that dir and move
// through Put and Get. A holding host keeps its jobs until cancelled.
class MemAdapter : public AdapterDefaults {
 public:
  MemAdapter(boost::asio::io_context& io, Clock& clock, MemFileSystem* fs,
             MemLog* log, std::string remote = "", bool hold = false)
      : io_(io),
        clock_(clock),
        fs_(fs),
        log_(log),
        remote_(std::move(remote)),
        hold_(hold) {}

  std::string_view kind() const override { return "mem"; }
  Status Connect() override { return Status::Ok(); }
  int FreeSlots() const override { return 2 - running_; }
  bool shares_master_files() const override { return remote_.empty(); }
  std::string work_dir() const override { return remote_; }

  void Submit(JobSpec spec, DoneCallback done) override {
    ++running_;
    if (hold_) {
      held_.push_back({std::move(spec), std::move(done)});
      return;
    }
    boost::asio::post(
        io_, [this, spec = std::move(spec), done = std::move(done)]() mutable {
          --running_;
          done(Run(spec));
        });
  }
  void Cancel(JobId id) override {
    auto it = std::find_if(held_.begin(), held_.end(),
                           [&](const Held& h) { return h.spec.id == id; });
    if (it == held_.end()) return;
    Held h = std::move(*it);
    held_.erase(it);
    {
      std::lock_guard<std::mutex> lock(log_->mu);
      log_->cancelled.push_back(h.spec.operation);
    }
    boost::asio::post(io_, [this, h = std::move(h)] {
      --running_;
      h.done(Report(h.spec.id, Cancelled{}));
    });
  }
  void Shutdown() override {
    while (!held_.empty()) Cancel(held_.front().spec.id);
  }

  void Put(std::string from, std::string to, StatusCallback done) override {
    Copy(from, to, std::move(done), &MemLog::puts);
  }
  void Get(std::string from, std::string to, StatusCallback done) override {
    Copy(from, to, std::move(done), &MemLog::gets);
  }
  void Remove(std::string path) override {
    (void)fs_->Remove(path);
    std::lock_guard<std::mutex> lock(log_->mu);
    log_->removes.push_back(path);
  }

 private:
  struct Held {
    JobSpec spec;
    DoneCallback done;
  };

  JobReport Report(JobId id, JobOutcome outcome) {
    JobReport r;
    r.id = id;
    r.outcome = std::move(outcome);
    r.submitted = r.started = r.ended = clock_.Now();
    return r;
  }

  JobReport Run(const JobSpec& spec) {
    if (spec.operation == "fail") {
      Exited e;
      e.code = 3;
      return Report(spec.id, e);
    }
    std::string text = spec.operation + "(";
    for (const JobParam& p : spec.params) {
      if (p.kind == JobParam::Kind::kScalar) text += p.value + ",";
      if (!p.source.empty()) {
        text += "[" + fs_->Contents(p.source).value_or("<none>") + "],";
      }
    }
    text += ")";
    for (const JobParam& p : spec.params) {
      if (!p.dest.empty()) fs_->Put(p.dest, text);
    }
    return Report(spec.id, Exited{});
  }

  void Copy(const std::string& from, const std::string& to, StatusCallback done,
            std::vector<std::pair<std::string, std::string>> MemLog::*list) {
    {
      std::lock_guard<std::mutex> lock(log_->mu);
      (log_->*list).push_back({from, to});
    }
    std::optional<std::string> bytes = fs_->Contents(from);
    if (bytes) fs_->Put(to, *bytes);
    Status s = bytes ? Status::Ok() : Status::NotFound("no " + from);
    boost::asio::post(io_, [done = std::move(done), s] { done(s); });
  }

  boost::asio::io_context& io_;
  Clock& clock_;
  MemFileSystem* fs_;
  MemLog* log_;
  std::string remote_;
  bool hold_;
  int running_ = 0;
  std::vector<Held> held_;
};

class EngineFilesTest : public ::testing::Test {
 protected:
  struct Host {
    std::string remote;
    bool hold = false;
  };

  void Start(std::vector<Host> hosts, std::string policy = "mct") {
    EngineOptions options;
    options.cwd = kCwd;
    options.work_dir = std::string(kCwd) + "/.gsrt";
    options.policy = std::move(policy);
    options.retries.app = 1;
    options.retries.backoff = 0;
    options.quiet = true;
    options.hooks.file_system = &fs_;
    engine_ = std::make_unique<Engine>(options);
    std::vector<HostSetup> setups;
    for (size_t i = 0; i < hosts.size(); ++i) {
      Host h = hosts[i];
      setups.push_back(
          HostSetup{"mem" + std::to_string(i),
                    [this, h](boost::asio::io_context& io, Clock& clock) {
                      return std::make_unique<MemAdapter>(
                          io, clock, &fs_, &log_, h.remote, h.hold);
                    },
                    "/no/worker"});
    }
    ASSERT_TRUE(engine_->Start(std::move(setups)).ok());
  }

  // The version files of `name` under `dir` ("<id>-name").
  std::vector<std::string> VersionsOf(const std::string& dir,
                                      const std::string& name) {
    std::vector<std::string> out;
    for (const std::string& p : fs_.FilesUnder(dir)) {
      if (p.ends_with("-" + name)) out.push_back(p);
    }
    return out;
  }

  RecordingFileSystem fs_;
  MemLog log_;
  std::unique_ptr<Engine> engine_;
};

std::string User(const std::string& name) {
  return std::string(kCwd) + "/" + name;
}

TEST_F(EngineFilesTest, FinalVersionsGoOntoTheUsersNamesOnlyAtStop) {
  Start({{}});
  SubmitProduce(*engine_, "a", 1);
  SubmitConsume(*engine_, "a", "sub/b");
  engine_->Barrier();
  // Until GS_Off the versions live in the data dir only.
  EXPECT_EQ(fs_.Contents(User("a")), std::nullopt);
  EXPECT_EQ(VersionsOf(kData, "a").size(), 1u);
  EXPECT_EQ(VersionsOf(kData, "b").size(), 1u);
  EXPECT_TRUE(fs_.IsPrivate(std::string(kCwd) + "/.gsrt"));
  EXPECT_EQ(engine_->Stop(), 0);
  EXPECT_EQ(fs_.Contents(User("a")), "produce(1,)");
  EXPECT_EQ(fs_.Contents(User("sub/b")), "consume([produce(1,)],)")
      << "a directory the user's file needs is made";
  // Only the last job number (the next run numbers after it) and the lock
  // stay: removing a lock file while others may open it would let two
  // masters hold "the" lock.
  EXPECT_EQ(
      fs_.FilesUnder(std::string(kCwd) + "/.gsrt"),
      (std::vector<std::string>{User(".gsrt/last_job"), User(".gsrt/lock")}));
  EXPECT_FALSE(fs_.IsDir(kData));
  EXPECT_EQ(
      fs_.FilesUnder(kCwd),
      (std::vector<std::string>{User(".gsrt/last_job"), User(".gsrt/lock"),
                                User("a"), User("sub/b")}));
}

TEST_F(EngineFilesTest, CollectedVersionsAreRemovedAsSoonAsNobodyReadsThem) {
  Start({{}});
  SubmitProduce(*engine_, "scratch", 1);
  SubmitConsume(*engine_, "scratch", "out1");
  SubmitProduce(*engine_, "scratch", 2);
  SubmitConsume(*engine_, "scratch", "out2");
  EXPECT_EQ(engine_->Stop(), 0);
  // Version 1 of scratch went when out1 was made; version 2 is the final
  // one, renamed, never removed.
  std::vector<std::string> removed;
  for (const std::string& p : fs_.removed()) {
    if (p.ends_with("-scratch")) removed.push_back(p);
  }
  ASSERT_EQ(removed.size(), 1u);
  EXPECT_EQ(removed[0].rfind(std::string(kData) + "/", 0), 0u) << removed[0];
  EXPECT_EQ(fs_.Contents(User("scratch")), "produce(2,)");
  EXPECT_EQ(fs_.Contents(User("out1")), "consume([produce(1,)],)");
  EXPECT_EQ(fs_.Contents(User("out2")), "consume([produce(2,)],)");
}

TEST_F(EngineFilesTest, AFailedFinalVersionLeavesTheUsersFileAsItWas) {
  fs_.Put(User("f"), "before");
  Start({{}});
  gs_arg args[1] = {};
  args[0].str = "f";
  engine_->Submit(&kFail, args);
  EXPECT_NE(engine_->Stop(), 0);
  EXPECT_EQ(fs_.Contents(User("f")), "before");
  EXPECT_EQ(fs_.FilesUnder(kCwd),
            (std::vector<std::string>{User(".gsrt/last_job"),
                                      User(".gsrt/lock"), User("f")}));
  for (const auto& [from, to] : fs_.renamed()) {
    EXPECT_NE(to, User("f")) << "renamed " << from << " onto the user's file";
  }
}

TEST_F(EngineFilesTest, RemoteOutputsStayOnTheirHostUntilStopFetchesThem) {
  fs_.Put(User("in"), "data");
  Start({{.remote = "/far"}});
  SubmitConsume(*engine_, "in", "a");
  SubmitConsume(*engine_, "a", "b");
  engine_->Barrier();
  {
    std::lock_guard<std::mutex> lock(log_.mu);
    ASSERT_EQ(log_.puts.size(), 1u) << "only the user's input is sent";
    EXPECT_EQ(log_.puts[0].first, User("in"));
    EXPECT_TRUE(log_.gets.empty()) << "an output moved before it was needed";
  }
  EXPECT_EQ(VersionsOf("/far/data", "a").size(), 1u);
  EXPECT_EQ(VersionsOf("/far/data", "b").size(), 1u);
  EXPECT_TRUE(fs_.FilesUnder(kData).empty());
  EXPECT_EQ(engine_->Stop(), 0);
  {
    std::lock_guard<std::mutex> lock(log_.mu);
    EXPECT_EQ(log_.gets.size(), 2u) << "the final versions of a and b";
  }
  EXPECT_EQ(fs_.Contents(User("a")), "consume([data],)");
  EXPECT_EQ(fs_.Contents(User("b")), "consume([consume([data],)],)");
  EXPECT_EQ(fs_.Contents(User("in")), "data");
}

// Found by the chaos soak (tests/chaos): every run left the final versions
// and the inputs it had sent in each remote host's data dir, for ever.
TEST_F(EngineFilesTest, NothingOfTheRunStaysOnARemoteHostAfterStop) {
  fs_.Put(User("in"), "data");
  Start({{.remote = "/far"}});
  SubmitConsume(*engine_, "in", "a");
  SubmitConsume(*engine_, "a", "b");
  engine_->Barrier();
  ASSERT_EQ(fs_.FilesUnder("/far/data").size(), 3u)
      << "the input and both outputs are on the host while the run goes on";
  EXPECT_EQ(engine_->Stop(), 0);
  EXPECT_EQ(fs_.FilesUnder("/far/data"), std::vector<std::string>{});
  std::lock_guard<std::mutex> lock(log_.mu);
  EXPECT_EQ(log_.removes.size(), 3u) << "each copy removed once";
}

// Found by the chaos soak: a master killed with a job running left that
// job's sandbox, and the run that resumed it ended leaving it there.
TEST_F(EngineFilesTest, AKilledMastersJobSandboxGoesWithTheNextRunsEnd) {
  fs_.Put(User(".gsrt/jobs/1068/stdout"), "");
  fs_.Put(User(".gsrt/jobs/1068/out.0"), "half written");
  Start({{}});
  SubmitProduce(*engine_, "a", 1);
  EXPECT_EQ(engine_->Stop(), 0);
  EXPECT_EQ(
      fs_.FilesUnder(std::string(kCwd) + "/.gsrt"),
      (std::vector<std::string>{User(".gsrt/last_job"), User(".gsrt/lock")}));
  EXPECT_FALSE(fs_.IsDir(User(".gsrt/jobs")));
}

TEST_F(EngineFilesTest, AWinningReplicasOutputsAreMovedIntoPlace) {
  // Host 0 keeps its job; the replica on host 1 ends first and wins.
  Start({{.hold = true}, {}}, "wqr-ft");
  SubmitProduce(*engine_, "a", 4);
  EXPECT_EQ(engine_->Stop(), 0);
  EXPECT_EQ(fs_.Contents(User("a")), "produce(4,)");
  bool replica_moved = false;
  for (const auto& [from, to] : fs_.renamed()) {
    if (from.find(".replica") != std::string::npos) {
      replica_moved = true;
      EXPECT_EQ(from.substr(0, from.find(".replica")), to);
    }
  }
  EXPECT_TRUE(replica_moved);
  std::lock_guard<std::mutex> lock(log_.mu);
  EXPECT_EQ(log_.cancelled, (std::vector<std::string>{"produce"}))
      << "the losing instance is cancelled";
}

}  // namespace
}  // namespace gs
