#include "runtime/sched/host_labels.h"

#include <gtest/gtest.h>

namespace gs {
namespace {

const std::vector<HostLabels> kHosts = {
    {"n1", {"gpu", "site-a"}}, {"n2", {}}, {"n3", {"gpu", "bigmem"}}};

TEST(HostLabelsTest, AHostCarriesItsLabelsAndItsName) {
  EXPECT_EQ(HostsCarrying(kHosts, {"gpu"}), (HostMask{true, false, true}));
  EXPECT_EQ(HostsCarrying(kHosts, {"n2"}), (HostMask{false, true, false}));
  EXPECT_EQ(HostsCarrying(kHosts, {"site-a", "bigmem"}),
            (HostMask{true, false, true}));
  EXPECT_EQ(HostsCarrying(kHosts, {"nowhere"}),
            (HostMask{false, false, false}));
  EXPECT_EQ(HostsCarrying(kHosts, {}), (HostMask{false, false, false}));
}

TEST(HostLabelsTest, OneMaskPerOperation) {
  auto masks = PlacementMasks({{"train", {"gpu"}}, {"plot", {"n2"}}}, kHosts);
  ASSERT_EQ(masks.size(), 2u);
  EXPECT_EQ(masks.at("train").hosts, (HostMask{true, false, true}));
  EXPECT_EQ(masks.at("train").labels, std::vector<std::string>{"gpu"});
  EXPECT_EQ(masks.at("plot").hosts, (HostMask{false, true, false}));
}

}  // namespace
}  // namespace gs
