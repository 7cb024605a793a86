#include "runtime/sched/policy_catalog.h"

#include <gtest/gtest.h>

#include <set>

#include "runtime/sched/scheduler.h"

namespace gs {
namespace {

TEST(PolicyCatalogTest, EveryNameIsAPolicyOnce) {
  std::set<std::string> seen;
  for (const PolicyInfo& p : PolicyCatalog()) {
    EXPECT_TRUE(seen.insert(p.name).second) << p.name << " twice";
    auto made = MakePolicy(p.name);
    ASSERT_TRUE(made.ok()) << p.name << ": " << made.status().message();
    EXPECT_EQ((*made)->name(), p.name);
    EXPECT_FALSE(p.description.empty()) << p.name;
  }
  // Paper 002's 4 passive and 12 proactive forms are all there.
  EXPECT_TRUE(seen.count("iay"));
  EXPECT_TRUE(seen.count("y-iay"));
  EXPECT_TRUE(seen.count("p-ip"));
}

}  // namespace
}  // namespace gs
