// The engine's start (ConnectHosts): hosts prepared at once, on threads of
// their own, and a slow host's start told as it goes.
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>
#include <string>

#include "runtime/engine/engine.h"
#include "tests/support/fake_adapter.h"
#include "tests/support/fake_operations.h"

namespace gs {
namespace {

namespace fs = std::filesystem;
using testing::FakeAdapter;
using testing::kProduce;

constexpr auto kBound = std::chrono::seconds(10);

// A FakeAdapter whose Prepare runs `prepare` (given the adapter, to tell
// its phases).
class PreparedAdapter : public FakeAdapter {
 public:
  PreparedAdapter(boost::asio::io_context& io, Clock& clock,
                  FakeAdapter::Log* log, std::string name,
                  std::function<Status(PreparedAdapter&)> prepare)
      : FakeAdapter(io, clock, 1, log, "", std::move(name)),
        prepare_(std::move(prepare)) {}
  Status Prepare() override { return prepare_(*this); }

 private:
  std::function<Status(PreparedAdapter&)> prepare_;
};

// Passed only by `n` callers together; false after kBound alone.
class Rendezvous {
 public:
  explicit Rendezvous(int n) : left_(n) {}
  bool ArriveAndWait() {
    std::unique_lock<std::mutex> lock(mu_);
    if (--left_ <= 0) cv_.notify_all();
    return cv_.wait_for(lock, kBound, [&] { return left_ <= 0; });
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  int left_;
};

// Recorded messages a test can wait for.
class WaitableMessages : public RecordingMessages {
 public:
  void Say(MessageKind kind, std::string_view text) override {
    RecordingMessages::Say(kind, text);
    std::lock_guard<std::mutex> lock(mu_);
    cv_.notify_all();
  }
  // Waits (bounded) until some message of `kind` contains `part`.
  bool WaitFor(MessageKind kind, std::string_view part) {
    std::unique_lock<std::mutex> lock(mu_);
    return cv_.wait_for(lock, kBound, [&] { return Has(kind, part); });
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
};

class EngineStartTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("gsrt-engine-start-test-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  HostSetup Host(std::string name,
                 std::function<Status(PreparedAdapter&)> prepare) {
    HostSetup setup;
    setup.name = name;
    setup.worker = "/no/worker";
    setup.make = [this, name, prepare](boost::asio::io_context& io,
                                       Clock& clock) {
      return std::make_unique<PreparedAdapter>(io, clock, &log_, name, prepare);
    };
    return setup;
  }
  Status Start(std::vector<HostSetup> hosts) {
    EngineOptions options;
    options.cwd = dir_.string();
    options.work_dir = (dir_ / ".gsrt").string();
    options.messages = &messages_;
    engine_ = std::make_unique<Engine>(options);
    return engine_->Start(std::move(hosts));
  }
  // Runs one task to the end of the run; true when it succeeded.
  bool RunOne() {
    gs_arg args[2] = {};
    args[0].str = "a";
    args[1].i = 1;
    engine_->Submit(&kProduce, args);
    if (engine_->Stop() != 0) return false;
    std::ifstream in(dir_ / "a");
    std::string text((std::istreambuf_iterator<char>(in)), {});
    return text == "produce(1,)";
  }

  fs::path dir_;
  FakeAdapter::Log log_;
  WaitableMessages messages_;
  std::unique_ptr<Engine> engine_;
};

TEST_F(EngineStartTest, HostsArePreparedAtTheSameTime) {
  // Each Prepare returns only once the other has begun: one after the
  // other, the first would wait alone until kBound.
  Rendezvous both(2);
  bool n1_met = false, n2_met = false;
  std::vector<HostSetup> hosts;
  hosts.push_back(Host("n1", [&](PreparedAdapter&) {
    n1_met = both.ArriveAndWait();
    return Status::Ok();
  }));
  hosts.push_back(Host("n2", [&](PreparedAdapter&) {
    n2_met = both.ArriveAndWait();
    return Status::Ok();
  }));
  ASSERT_TRUE(Start(std::move(hosts)).ok());
  EXPECT_TRUE(n1_met);
  EXPECT_TRUE(n2_met);
  EXPECT_TRUE(RunOne());
}

TEST_F(EngineStartTest, AHostWhosePrepareFailsIsRefusedWithItsReason) {
  std::vector<HostSetup> hosts;
  hosts.push_back(Host("good", [](PreparedAdapter&) { return Status::Ok(); }));
  hosts.push_back(Host("bad", [](PreparedAdapter&) {
    return Status::Unavailable("host 'bad': nobody answers on port 22");
  }));
  ASSERT_TRUE(Start(std::move(hosts)).ok());
  EXPECT_TRUE(messages_.Has(MessageKind::kWarning,
                            "some hosts are not used:\n  bad: host 'bad': "
                            "nobody answers on port 22"))
      << messages_.AllText();
  EXPECT_TRUE(RunOne());
}

TEST_F(EngineStartTest, ASlowHostIsToldAsItStartsAndAQuickOneIsNot) {
  bool told_connecting = false;
  std::vector<HostSetup> hosts;
  hosts.push_back(Host("quick", [](PreparedAdapter&) { return Status::Ok(); }));
  hosts.push_back(Host("slow", [&](PreparedAdapter& adapter) {
    // Its first second passes without a word; then GS_On names it.
    told_connecting = messages_.WaitFor(MessageKind::kInfo,
                                        "gsrt: host slow: connecting (fake)");
    adapter.StartPhaseIs(StartPhase::kInstalling);
    return Status::Ok();
  }));
  ASSERT_TRUE(Start(std::move(hosts)).ok());
  EXPECT_TRUE(told_connecting) << messages_.AllText();
  EXPECT_TRUE(messages_.Has(MessageKind::kInfo,
                            "gsrt: host slow: installing gsrt-agent"))
      << messages_.AllText();
  EXPECT_TRUE(messages_.Has(MessageKind::kInfo, "gsrt: host slow ready after"))
      << messages_.AllText();
  EXPECT_FALSE(messages_.Has(MessageKind::kInfo, "host quick"))
      << messages_.AllText();
  EXPECT_TRUE(RunOne());
}

}  // namespace
}  // namespace gs
