// mode: allocation's pure parts: reading the allocation, one host per node,
// and the srun command that starts a node's agent.
#include "adapters/batch/allocation.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace gs {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(AllocationTest, NodesAndTheirCpus) {
  auto nodes = ParseAllocationNodes("n1\nn2\nn3\nbig\n", "2(x3),8");
  ASSERT_TRUE(nodes.ok()) << nodes.status().message();
  EXPECT_THAT(*nodes,
              ElementsAre(AllocationNode{"n1", 2}, AllocationNode{"n2", 2},
                          AllocationNode{"n3", 2}, AllocationNode{"big", 8}));
  auto one = ParseAllocationNodes("n1\n", "4");
  ASSERT_TRUE(one.ok());
  EXPECT_THAT(*one, ElementsAre(AllocationNode{"n1", 4}));
}

TEST(AllocationTest, NamesAndCpusThatDisagreeAreRefused) {
  for (auto [names, cpus] :
       {std::pair{"n1\nn2\n", "2"}, std::pair{"n1\n", "2(x3)"},
        std::pair{"", "2"}, std::pair{"n1\n", "two"},
        std::pair{"n1\n", "2(x1"}}) {
    auto nodes = ParseAllocationNodes(names, cpus);
    EXPECT_FALSE(nodes.ok()) << names << " / " << cpus;
  }
}

TEST(AllocationTest, OutsideAnAllocationSaysWhatToDo) {
  auto nodes = ReadSlurmAllocation({});
  ASSERT_FALSE(nodes.ok());
  EXPECT_THAT(nodes.status().message(),
              HasSubstr("start the program inside one (salloc -N 3 ./app"));
}

HostConfig AllocationHost() {
  HostConfig h;
  h.name = "alloc";
  h.adapters = {AdapterKind::kSlurm};
  h.batch.mode = BatchMode::kAllocation;
  h.labels = {"cpu"};
  return h;
}

TEST(AllocationTest, OneHostPerNodeLabelledWithTheHostsName) {
  HostConfig local;
  local.name = "local";
  local.adapters = {AdapterKind::kLocal};
  HostConfig capped = AllocationHost();
  capped.name = "capped";
  capped.slots = 3;
  std::vector<HostConfig> hosts = ExpandAllocationHosts(
      {local, AllocationHost(), capped}, {{"n1", 2}, {"n2", 8}});
  ASSERT_EQ(hosts.size(), 5u);
  EXPECT_EQ(hosts[0].name, "local");
  EXPECT_EQ(hosts[1].name, "alloc-n1");
  EXPECT_EQ(hosts[1].batch.node, "n1");
  EXPECT_EQ(hosts[1].slots, 2);
  EXPECT_THAT(hosts[1].labels, ElementsAre("cpu", "alloc"));
  EXPECT_EQ(hosts[2].name, "alloc-n2");
  EXPECT_EQ(hosts[2].slots, 8);
  EXPECT_EQ(hosts[3].slots, 2);  // slots: 3, but n1 has 2 CPUs
  EXPECT_EQ(hosts[4].slots, 3);
  EXPECT_TRUE(WantsAllocation({local, AllocationHost()}));
  EXPECT_FALSE(WantsAllocation({local}));
}

TEST(AllocationTest, TheAgentStartsBySrunOnItsNode) {
  AllocationNodeOptions o;
  o.host = ExpandAllocationHosts({AllocationHost()}, {{"n2", 4}})[0];
  o.host.launcher = {"bwrap", "--dev-bind", "/", "/"};
  o.host.batch.extra = {"--account=x"};
  o.job_id = "42";
  o.agent_program = "/opt/gsrt/bin/gsrt-agent";
  o.work_dir = "/scratch/w d/n2";
  o.heartbeat = 5;
  o.workers = WorkerMode::kPersistent;
  std::vector<std::string> argv = AllocationAgentArgv(o);
  ASSERT_GE(argv.size(), 14u);
  o.host.launcher.clear();
  std::vector<std::string> plain = AllocationAgentArgv(o);
  EXPECT_EQ(plain[13], "/opt/gsrt/bin/gsrt-agent");  // no shell needed
  EXPECT_THAT(std::vector<std::string>(argv.begin(), argv.begin() + 12),
              ElementsAre("srun", "--jobid=42", "--overlap", "--nodes=1",
                          "--ntasks=1", "--nodelist=n2", "--cpus-per-task=4",
                          "--kill-on-bad-exit=1", "--unbuffered", "--quiet",
                          "--job-name=gsrt-agent-n2", "--account=x"));
  EXPECT_EQ(argv[12], "--");
  // A launcher is checked by a shell first (host_environment.h), which
  // then execs the agent with its arguments as they are.
  EXPECT_EQ(argv[13], "/bin/sh");
  ASSERT_GE(argv.size(), 13u + 14u);
  EXPECT_THAT(
      std::vector<std::string>(argv.end() - 14, argv.end()),
      ElementsAre("/opt/gsrt/bin/gsrt-agent", "--workdir", "/scratch/w d/n2",
                  "--slots", "4", "--heartbeat", "5.000000", "--workers",
                  "persistent", "--detect-gpus", "--launcher=bwrap",
                  "--launcher=--dev-bind", "--launcher=/", "--launcher=/"));
}

}  // namespace
}  // namespace gs
