#include "adapters/simulated/sim_master_link.h"

#include <gtest/gtest.h>

#include "runtime/base/virtual_clock.h"

namespace gs {
namespace {

struct LinkRun {
  explicit LinkRun(uint32_t n_com) : link(&clock, n_com) {}
  // Sends `seconds` to `host`; its arrival time lands in ends[i].
  void Send(uint32_t host, Seconds seconds) {
    size_t i = ends.size();
    ends.push_back(-1);
    ids.push_back(
        link.Send(host, seconds, [this, i] { ends[i] = clock.Now(); }));
  }
  void RunAll() {
    while (clock.RunNext()) {
    }
  }
  VirtualClock clock;
  SimMasterLink link;
  std::vector<Seconds> ends;
  std::vector<SimMasterLink::Id> ids;
};

TEST(SimMasterLinkTest, OneChannelSendsOneAfterTheOther) {
  LinkRun r(1);
  r.Send(0, 5);
  r.Send(1, 5);
  r.Send(2, 3);
  EXPECT_EQ(r.link.active(), 1u);
  EXPECT_EQ(r.link.queued(), 2u);
  r.RunAll();
  EXPECT_EQ(r.ends, (std::vector<Seconds>{5, 10, 13}));
}

TEST(SimMasterLinkTest, NComChannelsOrNoBoundSendInParallel) {
  LinkRun two(2);
  two.Send(0, 5);
  two.Send(1, 5);
  two.Send(2, 3);  // waits for the first channel to free, at 5
  two.RunAll();
  EXPECT_EQ(two.ends, (std::vector<Seconds>{5, 5, 8}));
  LinkRun unbounded(0);
  unbounded.Send(0, 5);
  unbounded.Send(1, 5);
  unbounded.Send(2, 3);
  unbounded.RunAll();
  EXPECT_EQ(unbounded.ends, (std::vector<Seconds>{5, 5, 3}));
}

TEST(SimMasterLinkTest, AReclaimedHostPausesItsTransferWhichKeepsTheChannel) {
  LinkRun r(1);
  r.Send(0, 5);
  r.Send(1, 5);
  auto away = r.clock.After(2, [&] { r.link.SetHostUp(0, false); });
  auto back = r.clock.After(6, [&] { r.link.SetHostUp(0, true); });
  r.RunAll();
  // 2 s, 4 s paused, 3 s more; then the second from 9.
  EXPECT_EQ(r.ends, (std::vector<Seconds>{9, 14}));
}

TEST(SimMasterLinkTest, ATransferAdmittedToAHostNotUpWaitsForIt) {
  LinkRun r(0);
  r.link.SetHostUp(0, false);
  r.Send(0, 5);
  auto back = r.clock.After(4, [&] { r.link.SetHostUp(0, true); });
  r.RunAll();
  EXPECT_EQ(r.ends, (std::vector<Seconds>{9}));
}

TEST(SimMasterLinkTest, DroppingATransferGivesItsChannelToTheNext) {
  LinkRun r(1);
  r.Send(0, 5);
  r.Send(1, 5);
  r.Send(2, 1);
  auto drop = r.clock.After(2, [&] { r.link.Drop(r.ids[0]); });
  r.link.Drop(r.ids[2]);  // a queued one: never sent
  r.RunAll();
  EXPECT_EQ(r.ends, (std::vector<Seconds>{-1, 7, -1}));
  EXPECT_EQ(r.link.active(), 0u);
  EXPECT_EQ(r.link.queued(), 0u);
}

}  // namespace
}  // namespace gs
