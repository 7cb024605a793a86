#include "runtime/engine/engine_loop.h"

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <future>
#include <memory>
#include <thread>

namespace gs {
namespace {

class EngineLoopTest : public ::testing::Test {
 protected:
  // Ends the loop the way the engine does at GS_Off.
  void End(EngineLoop& loop) {
    {
      MutexLock lock(&mu_);
      gate_.MasterLeaves();
    }
    boost::asio::post(loop.io(), [&loop] { loop.Stop(); });
    loop.Join();
  }

  Mutex mu_;
  MasterGate gate_;
  RecordingMessages messages_;
};

TEST_F(EngineLoopTest, HandlersRunOnTheEngineThread) {
  EngineLoop loop(/*virtual_time=*/false, mu_, gate_, messages_);
  EXPECT_FALSE(loop.made());
  loop.Make();
  ASSERT_TRUE(loop.made());
  std::promise<std::thread::id> ran;
  boost::asio::post(loop.io(),
                    [&ran] { ran.set_value(std::this_thread::get_id()); });
  loop.Run();
  EXPECT_TRUE(loop.running());
  std::future<std::thread::id> id = ran.get_future();
  ASSERT_EQ(id.wait_for(std::chrono::seconds(10)), std::future_status::ready);
  EXPECT_NE(id.get(), std::this_thread::get_id());
  End(loop);
  EXPECT_FALSE(loop.running());
}

TEST_F(EngineLoopTest, InVirtualTimeTheClockJumpsToTheTimerTheMasterWaitsFor) {
  EngineLoop loop(/*virtual_time=*/true, mu_, gate_, messages_);
  loop.Make();
  bool fired = false;
  Seconds fired_at = -1;
  auto timer = loop.clock().After(3600, [&] {
    MutexLock lock(&mu_);
    fired = true;
    fired_at = loop.clock().Now();
    gate_.notify_all();
  });
  loop.Run();
  {
    MutexLock lock(&mu_);
    gate_.wait(lock, [&] { return fired; });
  }
  EXPECT_EQ(fired_at, 3600) << "an hour of virtual time, at once";
  End(loop);
  EXPECT_TRUE(messages_.messages().empty());
}

}  // namespace
}  // namespace gs
