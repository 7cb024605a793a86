#include "runtime/config/config_operations.h"

#include <gtest/gtest.h>

namespace gs {
namespace {

ConfigEnv TestEnv() {
  ConfigEnv env;
  env.cwd = "/home/u/run";
  env.home = "/home/u";
  env.user = "u";
  env.cores = 4;
  return env;
}

Config Load(const std::string& yaml) {
  auto c = LoadConfigFromString(yaml, "gsrt.yaml", TestEnv());
  EXPECT_TRUE(c.ok()) << c.status().message();
  return c.ok() ? *c : Config{};
}

const std::vector<std::string> kOps = {"split", "count", "merge"};

TEST(ConfigOperationsTest, KnownOperationsPass) {
  Config c = Load(
      "runtime:\n"
      "  timeout: {count: 5, merge: 1.5}\n"
      "hosts:\n"
      "  - {name: s, adapter: sim, sim: {time: 1, time.split: 2}}\n");
  EXPECT_TRUE(CheckOperationKeys(c, kOps).ok());
  EXPECT_TRUE(CheckOperationKeys(Load("runtime: {policy: met}\n"), kOps).ok());
}

TEST(ConfigOperationsTest, ATypoIsRefusedWithFileLineAndTheClosestName) {
  Config c = Load(
      "runtime:\n"
      "  timeout:\n"
      "    cuont: 5\n");
  Status s = CheckOperationKeys(c, kOps);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(),
            "gsrt.yaml:3:5: key 'runtime.timeout.cuont': the program has no "
            "operation 'cuont' (its IDL declares: split, count, merge); did "
            "you mean 'count'?");
}

TEST(ConfigOperationsTest, EveryUnknownNameIsReportedAtOnceSimHostsToo) {
  Config c = Load(
      "runtime:\n"
      "  timeout: {count: 5, render: 2}\n"
      "hosts:\n"
      "  - name: s\n"
      "    adapter: sim\n"
      "    sim: {time.splt: 2, speed: 2}\n");
  Status s = CheckOperationKeys(c, kOps);
  ASSERT_FALSE(s.ok());
  const std::string& m = s.message();
  EXPECT_NE(m.find("key 'runtime.timeout.render': the program has no "
                   "operation 'render' (its IDL declares: split, count, "
                   "merge)\n"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("gsrt.yaml:6:11: host 's', key 'sim.time.splt': the "
                   "program has no operation 'splt' (its IDL declares: split, "
                   "count, merge); did you mean 'split'?"),
            std::string::npos)
      << m;
  EXPECT_EQ(m.find("speed"), std::string::npos) << m;
}

TEST(ConfigOperationsTest, APlacementOfAnUnknownOperationIsRefused) {
  Config c = Load(
      "runtime:\n"
      "  hosts: {cont: [here]}\n"
      "hosts:\n"
      "  - {name: here, adapter: local}\n");
  Status s = CheckOperationKeys(c, kOps);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("key 'runtime.hosts.cont': the program has no "
                             "operation 'cont'"),
            std::string::npos)
      << s.message();
  EXPECT_NE(s.message().find("did you mean 'count'?"), std::string::npos);
}

}  // namespace
}  // namespace gs
