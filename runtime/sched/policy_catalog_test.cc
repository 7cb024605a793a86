#include "runtime/sched/policy_catalog.h"

#include <gtest/gtest.h>

#include <set>

#include "runtime/config/config_validate.h"
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

// gsrt.yaml's validation keeps its own list (the config layer cannot see
// the policies): the two must name the same policies.
TEST(PolicyCatalogTest, GsrtYamlAcceptsExactlyTheCatalog) {
  std::set<std::string> catalog, yaml;
  for (const PolicyInfo& p : PolicyCatalog()) catalog.insert(p.name);
  for (const std::string& name : KnownPolicies()) yaml.insert(name);
  EXPECT_EQ(catalog, yaml);
}

}  // namespace
}  // namespace gs
