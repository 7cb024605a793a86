// A volatile policy in a live (fake-adapter) run learns availability from
// what the engine sees: a job that ends with its host failing makes that
// host less likely to succeed, and the policy places elsewhere from then.
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <mutex>

#include "runtime/engine/engine.h"
#include "runtime/observe/run_observer.h"
#include "tests/support/fake_adapter.h"
#include "tests/support/fake_operations.h"
#include "tests/support/fault_injecting_adapter.h"

namespace gs {
namespace {

namespace fs = std::filesystem;
using testing::FakeAdapter;

// Every operation takes 10 s on every host, as far as the policies know:
// long enough (10 slots of 1 s) for the probability of success to tell
// hosts apart. The fake jobs themselves end at once.
class TenSeconds : public ExecOracle {
 public:
  int64_t OpIndex(std::string_view) const override { return 0; }
  Seconds Time(int64_t, uint32_t) const override { return 10; }
};

// Where each job went, and when a host came back.
class Placements : public RunObserver {
 public:
  void OnJobStarted(const JobStart& job) override {
    std::lock_guard<std::mutex> lock(mu_);
    hosts_.push_back(job.host);
  }
  void OnEvent(const RunEvent& e) override {
    if (e.kind != "host_up") return;
    {
      std::lock_guard<std::mutex> lock(mu_);
      back_.push_back(e.host);
    }
    cv_.notify_all();
  }
  std::vector<std::string> hosts() {
    std::lock_guard<std::mutex> lock(mu_);
    return hosts_;
  }
  bool WaitBack(const std::string& host) {
    std::unique_lock<std::mutex> lock(mu_);
    return cv_.wait_for(lock, std::chrono::seconds(10), [&] {
      return std::find(back_.begin(), back_.end(), host) != back_.end();
    });
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::string> hosts_, back_;
};

TEST(EngineAvailabilityTest, IpLeavesAHostOnceItsLearnedAvailabilityDrops) {
  fs::path dir = fs::temp_directory_path() /
                 ("gsrt-availability-test-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  EngineOptions o;
  o.cwd = dir.string();
  o.work_dir = (dir / ".gsrt").string();
  o.policy = "ip";
  o.hooks.exec_oracle = std::make_shared<TenSeconds>();
  o.retries.backoff = 0;
  o.reconnect_backoff = 0.01;
  o.reconnect_backoff_max = 0.01;
  auto placements = std::make_shared<Placements>();
  o.observers.push_back(placements);
  FakeAdapter::Log log_a, log_b;
  auto plan_a = std::make_shared<FaultPlan>();
  auto setup = [&dir](const char* name, FakeAdapter::Log* log,
                      std::shared_ptr<FaultPlan> plan) {
    return HostSetup{
        name,
        [name, log, plan](boost::asio::io_context& io, Clock& clock) {
          return std::make_unique<FaultInjectingAdapter>(
              io, clock,
              std::make_unique<FakeAdapter>(io, clock, 1, log, "", name), plan);
        },
        "/no/worker"};
  };
  auto engine = std::make_unique<Engine>(o);
  std::vector<HostSetup> setups;
  setups.push_back(setup("a", &log_a, plan_a));
  setups.push_back(setup("b", &log_b, std::make_shared<FaultPlan>()));
  ASSERT_TRUE(engine->Start(std::move(setups)).ok());

  // Both hosts always UP so far: equal P, the tie goes to the first.
  testing::SubmitProduce(*engine, "x1", 1);
  engine->Barrier();
  ASSERT_EQ(placements->hosts(), (std::vector<std::string>{"a"}));

  // a fails a job: the engine loses it, and the retry goes to b.
  plan_a->FailNextSubmits(1, HostFailed{"connection reset"});
  testing::SubmitProduce(*engine, "x2", 2);
  engine->Barrier();
  ASSERT_EQ(placements->hosts(), (std::vector<std::string>{"a", "a", "b"}));

  // a is back, UP and free, as at the start; but it has been seen going
  // DOWN once, so its P over 10 slots is below b's, and ip takes b.
  ASSERT_TRUE(placements->WaitBack("a")) << "host a never reconnected";
  testing::SubmitProduce(*engine, "x3", 3);
  engine->Barrier();
  EXPECT_EQ(placements->hosts(),
            (std::vector<std::string>{"a", "a", "b", "b"}));
  EXPECT_EQ(engine->Stop(), 0);
  engine.reset();
  fs::remove_all(dir);
}

}  // namespace
}  // namespace gs
