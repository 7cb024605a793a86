// Rules across keys, through the whole loader (so messages carry file:line)
// and on configs built in code (no file: no position prefix).
#include "runtime/config/config_validate.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

namespace gs {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

ConfigEnv TestEnv() {
  ConfigEnv env;
  env.cwd = "/work/proj";
  env.home = "/home/alice";
  env.user = "alice";
  env.cores = 3;
  return env;
}

std::string LoadError(const std::string& yaml) {
  StatusOr<Config> result = LoadConfigFromString(yaml, "gsrt.yaml", TestEnv());
  EXPECT_FALSE(result.ok()) << "loaded:\n" << yaml;
  if (result.ok()) return "";
  EXPECT_EQ(result.status().code(), Status::Code::kInvalidArgument);
  return result.status().message();
}

TEST(ConfigValidateTest, DuplicateHostNames) {
  EXPECT_EQ(LoadError("hosts:\n"
                      "  - name: a\n"
                      "    adapter: local\n"
                      "  - name: a\n"
                      "    adapter: local\n"),
            "gsrt.yaml:4:5: host 'a', key 'name': host name 'a' is already "
            "used at gsrt.yaml:2:5; host names must be unique");
}

TEST(ConfigValidateTest, MissingName) {
  EXPECT_EQ(LoadError("hosts:\n  - adapter: local\n"),
            "gsrt.yaml:2:5: hosts[0]: missing required key 'name'; add e.g. "
            "'name: node1'");
}

TEST(ConfigValidateTest, MissingAdapter) {
  EXPECT_EQ(LoadError("hosts:\n  - name: a\n    slots: 2\n"),
            "gsrt.yaml:2:5: host 'a': missing required key 'adapter'; add "
            "e.g. 'adapter: ssh' (one of local, ssh, slurm, pbs, sim)");
}

TEST(ConfigValidateTest, MissingAddressForSsh) {
  EXPECT_EQ(LoadError("hosts:\n  - name: a\n    adapter: [ssh, local]\n"),
            "gsrt.yaml:2:5: host 'a': missing required key 'address' for "
            "adapter ssh; add the host name or IP address, e.g. 'address: "
            "10.0.0.5'");
}

TEST(ConfigValidateTest, InvalidHostName) {
  EXPECT_EQ(LoadError("hosts:\n  - name: my host\n    adapter: local\n"),
            "gsrt.yaml:2:5: host 'my host', key 'name': 'my host' is not a "
            "valid host name; use letters, digits, '.', '_' and '-'");
}

TEST(ConfigValidateTest, AdapterListedTwice) {
  EXPECT_EQ(LoadError("hosts:\n  - name: a\n    adapter: [local, local]\n"),
            "gsrt.yaml:3:5: host 'a', key 'adapter': lists adapter 'local' "
            "twice; list each once");
}

TEST(ConfigValidateTest, BatchKeyOnSshHost) {
  EXPECT_EQ(LoadError("hosts:\n"
                      "  - name: n1\n"
                      "    adapter: ssh\n"
                      "    address: 10.0.0.1\n"
                      "    partition: debug\n"),
            "gsrt.yaml:5:5: host 'n1', key 'partition': does not apply to "
            "adapter ssh (it is for slurm, pbs); remove it or change the "
            "adapter");
}

TEST(ConfigValidateTest, SshKeyOnLocalHost) {
  EXPECT_EQ(LoadError("hosts:\n"
                      "  - name: here\n"
                      "    adapter: local\n"
                      "    port: 22\n"),
            "gsrt.yaml:4:5: host 'here', key 'port': does not apply to "
            "adapter local (it is for ssh); remove it or change the adapter");
}

TEST(ConfigValidateTest, KeyOfAnyListedAdapterIsAllowed) {
  StatusOr<Config> config = LoadConfigFromString(
      "hosts:\n"
      "  - {name: c, adapter: [slurm, ssh], address: login, partition: p}\n",
      "gsrt.yaml", TestEnv());
  EXPECT_TRUE(config.ok()) << config.status().ToString();
}

TEST(ConfigValidateTest, PilotsNeedPilotMode) {
  EXPECT_EQ(LoadError("hosts:\n"
                      "  - name: c\n"
                      "    adapter: slurm\n"
                      "    slots: 4\n"
                      "    pilots: 2\n"),
            "gsrt.yaml:5:5: host 'c', key 'pilots': applies only with 'mode: "
            "pilot'");
}

// Only with `slots` given: without it each pilot brings its allocation.
TEST(ConfigValidateTest, PilotsMoreThanSlots) {
  EXPECT_EQ(LoadError("hosts:\n"
                      "  - name: c\n"
                      "    adapter: slurm\n"
                      "    mode: pilot\n"
                      "    slots: 1\n"
                      "    pilots: 2\n"),
            "gsrt.yaml:6:5: host 'c', key 'pilots': is 2 but slots is only 1; "
            "each pilot needs a slot, so raise slots or lower pilots");
}

// mode: allocation: slots may be left to each node's CPUs; PBS, `via` and
// `gpus` are refused with why.
TEST(ConfigValidateTest, AllocationMode) {
  StatusOr<Config> ok = LoadConfigFromString(
      "hosts:\n  - name: a\n    adapter: slurm\n    mode: allocation\n",
      "gsrt.yaml", TestEnv());
  ASSERT_TRUE(ok.ok()) << ok.status().message();
  EXPECT_EQ(ok->hosts[0].batch.mode, BatchMode::kAllocation);
  EXPECT_EQ(ok->hosts[0].slots, 0);  // each node's CPUs
  EXPECT_THAT(LoadError("hosts:\n  - name: a\n    adapter: pbs\n"
                        "    mode: allocation\n"),
              HasSubstr("host 'a', key 'mode': 'allocation' is for slurm "
                        "hosts: PBS has no srun"));
  EXPECT_THAT(LoadError("hosts:\n  - name: a\n    adapter: slurm\n"
                        "    mode: allocation\n    gpus: 2\n"),
              HasSubstr("key 'gpus': does not apply with 'mode: allocation'"));
  EXPECT_THAT(LoadError("hosts:\n  - name: a\n    adapter: slurm\n"
                        "    mode: allocation\n    pilots: 2\n"),
              HasSubstr("key 'pilots': applies only with 'mode: pilot'"));
}

TEST(ConfigValidateTest, MaxPilotsNeedPilotMode) {
  EXPECT_EQ(LoadError("hosts:\n"
                      "  - name: c\n"
                      "    adapter: slurm\n"
                      "    max_pilots: 3\n"),
            "gsrt.yaml:4:5: host 'c', key 'max_pilots': applies only with "
            "'mode: pilot'");
  EXPECT_EQ(LoadError("hosts:\n"
                      "  - name: c\n"
                      "    adapter: slurm\n"
                      "    pilot_linger: 5\n"),
            "gsrt.yaml:4:5: host 'c', key 'pilot_linger': applies only with "
            "'mode: pilot'");
}

TEST(ConfigValidateTest, MaxPilotsIsAtLeastTheFloor) {
  EXPECT_EQ(LoadError("hosts:\n"
                      "  - name: c\n"
                      "    adapter: slurm\n"
                      "    mode: pilot\n"
                      "    pilots: 3\n"
                      "    max_pilots: 2\n"),
            "gsrt.yaml:6:5: host 'c', key 'max_pilots': is 2 but pilots is 3; "
            "pilots is the floor, so raise max_pilots or lower pilots");
}

// A grown pilot brings its allocation's CPUs: a fixed `slots` cannot say
// how many the host has.
TEST(ConfigValidateTest, MaxPilotsNeedsSlotsFromPilots) {
  EXPECT_EQ(LoadError("hosts:\n"
                      "  - name: c\n"
                      "    adapter: slurm\n"
                      "    mode: pilot\n"
                      "    slots: 4\n"
                      "    max_pilots: 2\n"),
            "gsrt.yaml:6:5: host 'c', key 'max_pilots': needs pilots sized by "
            "their allocations; remove 'slots' (each pilot then runs as many "
            "jobs as its allocation has CPUs)");
}

TEST(ConfigValidateTest, MaxPilotsWithinMaxJobs) {
  EXPECT_EQ(LoadError("hosts:\n"
                      "  - name: c\n"
                      "    adapter: slurm\n"
                      "    mode: pilot\n"
                      "    max_jobs: 2\n"
                      "    max_pilots: 4\n"),
            "gsrt.yaml:6:5: host 'c', key 'max_pilots': is 4 but max_jobs is "
            "2; the host never holds more batch jobs than max_jobs, so lower "
            "max_pilots or raise max_jobs");
}

TEST(ConfigValidateTest, PilotLingerNotNegative) {
  std::string error = LoadError(
      "hosts:\n"
      "  - {name: c, adapter: slurm, mode: pilot, pilot_linger: -1}\n");
  EXPECT_NE(error.find("gsrt.yaml:2:"), std::string::npos) << error;
  EXPECT_NE(error.find("key 'pilot_linger'"), std::string::npos) << error;
  EXPECT_NE(error.find("seconds (0 or more)"), std::string::npos) << error;
}

TEST(ConfigValidateTest, ViaMustNameAnSshHost) {
  EXPECT_EQ(LoadError("hosts:\n"
                      "  - name: c\n"
                      "    adapter: slurm\n"
                      "    via: login\n"),
            "gsrt.yaml:4:5: host 'c', key 'via': names no host of this file "
            "('login'); add an ssh host of that name (the login node)");
  EXPECT_EQ(LoadError("hosts:\n"
                      "  - name: c\n"
                      "    adapter: slurm\n"
                      "    via: here\n"
                      "  - name: here\n"
                      "    adapter: local\n"),
            "gsrt.yaml:4:5: host 'c', key 'via': names host 'here', which "
            "does not use adapter ssh");
}

TEST(ConfigValidateTest, UnknownPolicySuggestsClosest) {
  EXPECT_EQ(LoadError("runtime:\n  policy: mtc\n"),
            "gsrt.yaml:2:3: key 'runtime.policy': unknown policy 'mtc'; did "
            "you mean 'mct'?");
  EXPECT_THAT(LoadError("runtime:\n  policy: best\n"),
              HasSubstr("unknown policy 'best'; known policies: met, mct, "
                        "min-min"));
}

TEST(ConfigValidateTest, PolicyNamesAreCaseInsensitive) {
  StatusOr<Config> config =
      LoadConfigFromString("runtime:\n  policy: WQDR-FT\n", "g", TestEnv());
  ASSERT_TRUE(config.ok()) << config.status().ToString();
  EXPECT_EQ(config->runtime.policy, "wqdr-ft");
}

TEST(ConfigValidateTest, BackoffMaxBelowBackoff) {
  EXPECT_EQ(LoadError("runtime:\n  retries:\n    backoff: 10\n"
                      "    backoff_max: 5\n"),
            "gsrt.yaml:4:5: key 'runtime.retries.backoff_max': is smaller "
            "than backoff; make it at least backoff");
}

TEST(ConfigValidateTest, BadNamesInMaps) {
  EXPECT_EQ(LoadError("runtime:\n  timeout: {multi-ply: 5}\n"),
            "gsrt.yaml:2:13: key 'runtime.timeout.multi-ply': is not an "
            "operation name (letters, digits and '_' as in the IDL file)");
  EXPECT_EQ(LoadError("hosts:\n  - name: a\n    adapter: local\n"
                      "    env: {1X: y}\n"),
            "gsrt.yaml:4:11: host 'a', key 'env.1X': is not an environment "
            "variable name (letters, digits and '_', not starting with a "
            "digit)");
}

// env, setup and launcher (issue 29): a host's own win over host_defaults;
// a simulated host starts nothing, so neither applies to it.
TEST(ConfigValidateTest, HostEnvironmentKeys) {
  StatusOr<Config> ok = LoadConfigFromString(
      "host_defaults: {env: {A: '1', B: '2'}, setup: [module load x],\n"
      "                launcher: [env]}\n"
      "hosts:\n"
      "  - {name: a, adapter: local, env: {B: own}, launcher: [bwrap, -x]}\n"
      "  - {name: s, adapter: sim}\n",
      "gsrt.yaml", TestEnv());
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  const HostConfig a = WithHostDefaults(ok->host_defaults, ok->hosts[0]);
  EXPECT_EQ(a.env,
            (std::map<std::string, std::string>{{"A", "1"}, {"B", "own"}}));
  EXPECT_EQ(a.setup, std::vector<std::string>{"module load x"});
  EXPECT_EQ(a.launcher, (std::vector<std::string>{"bwrap", "-x"}));
  EXPECT_TRUE(
      WithHostDefaults(ok->host_defaults, ok->hosts[1]).Environment().empty());
  EXPECT_EQ(LoadError("hosts:\n  - {name: s, adapter: sim, setup: [x]}\n"),
            "gsrt.yaml:2:29: host 's', key 'setup': does not apply to "
            "adapter sim (it is for local, ssh, slurm, pbs); remove it or "
            "change the adapter");
  EXPECT_THAT(
      LoadError("hosts:\n  - {name: a, adapter: local, launcher: [' ']}\n"),
      HasSubstr("host 'a', key 'launcher[0]': is empty; give a word of the "
                "command"));
  EXPECT_THAT(LoadError("host_defaults: {setup: {x: 1}}\n"),
              HasSubstr("key 'host_defaults.setup': expected a list of shell "
                        "lines"));
  EXPECT_THAT(LoadError("host_defaults: {stup: [x]}\n"),
              HasSubstr("did you mean 'setup'?"));
}

// runtime.hosts keeps an operation to hosts by label or name; a label no
// host has would leave it nowhere to run.
TEST(ConfigValidateTest, PlacementNamesLabelsThatExist) {
  const std::string hosts =
      "hosts:\n"
      "  - {name: a, adapter: local, labels: [gpu, site-b]}\n"
      "  - {name: b, adapter: local, labels: bigmem}\n";
  StatusOr<Config> ok = LoadConfigFromString(
      "runtime:\n  hosts: {train: [gpu], merge: b, plot: [site-b, bigmem]}\n" +
          hosts,
      "gsrt.yaml", TestEnv());
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  EXPECT_EQ(ok->hosts[1].labels, std::vector<std::string>{"bigmem"});
  EXPECT_EQ(ok->runtime.hosts.at("merge"), std::vector<std::string>{"b"});
  EXPECT_EQ(LoadError("runtime:\n  hosts: {train: [gpus]}\n" + hosts),
            "gsrt.yaml:2:19: key 'runtime.hosts.train[0]': no host has label "
            "'gpus', so operation 'train' could not run there; labels: "
            "bigmem, gpu, site-b; hosts: a, b; did you mean 'gpu'?");
  EXPECT_THAT(LoadError("runtime:\n  hosts: {train: []}\n" + hosts),
              HasSubstr("key 'runtime.hosts.train': lists no label"));
  EXPECT_THAT(LoadError("runtime:\n  hosts: {tr-ain: [a]}\n" + hosts),
              HasSubstr("is not an operation name"));
  EXPECT_THAT(LoadError("runtime:\n  hosts: {train: {x: 1}}\n" + hosts),
              HasSubstr("expected a list of host labels or names such as "
                        "[gpu]"));
}

// `memory` is a key of every host (docs/configuration.md), and the
// validator let no adapter have it.
TEST(ConfigValidateTest, MemoryAppliesToEveryAdapter) {
  StatusOr<Config> c = LoadConfigFromString(
      "hosts:\n  - {name: a, adapter: local, memory: 16}\n"
      "  - {name: b, adapter: ssh, address: h, memory: 7.5}\n",
      "gsrt.yaml", TestEnv());
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_DOUBLE_EQ(c->hosts[0].memory_gb, 16);
  EXPECT_DOUBLE_EQ(c->hosts[1].memory_gb, 7.5);
}

// gpus: a count (devices 0 .. k-1), a list of ids, or 0 for none; a batch
// host in job mode counts them and asks the queue for each job's; pilots
// offer what their allocations show.
TEST(ConfigValidateTest, GpusAreACountOrDeviceIds) {
  StatusOr<Config> c = LoadConfigFromString(
      "hosts:\n  - {name: a, adapter: local, gpus: 3}\n"
      "  - {name: b, adapter: ssh, address: h, gpus: [1, GPU-8e1f]}\n"
      "  - {name: c, adapter: local, gpus: 0}\n",
      "gsrt.yaml", TestEnv());
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->hosts[0].gpus, (std::vector<std::string>{"0", "1", "2"}));
  EXPECT_EQ(c->hosts[1].gpus, (std::vector<std::string>{"1", "GPU-8e1f"}));
  EXPECT_EQ(c->hosts[2].gpus, std::vector<std::string>{});
  EXPECT_EQ(LoadError("hosts:\n  - {name: a, adapter: local, gpus: [0, 0]}\n"),
            "gsrt.yaml:2:41: host 'a', key 'gpus[1]': device '0' is listed "
            "twice");
  EXPECT_THAT(LoadError("hosts:\n  - {name: a, adapter: local, gpus: "
                        "[\"0,1\"]}\n"),
              HasSubstr("'0,1' is not a device id"));
  EXPECT_THAT(LoadError("hosts:\n  - {name: a, adapter: local, gpus: -1}\n"),
              HasSubstr("a number of GPUs or a list of device ids"));
  StatusOr<Config> batch = LoadConfigFromString(
      "hosts:\n  - {name: a, adapter: slurm, shared_fs: true, gpus: 2}\n",
      "gsrt.yaml", TestEnv());
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  EXPECT_EQ(batch->hosts[0].gpus, (std::vector<std::string>{"0", "1"}));
  EXPECT_THAT(LoadError("hosts:\n  - {name: a, adapter: slurm, mode: pilot, "
                        "gpus: 2}\n"),
              HasSubstr("key 'gpus': pilots offer the GPUs of their "
                        "allocations"));
}

TEST(ConfigValidateTest, LabelsAreNames) {
  EXPECT_EQ(LoadError("hosts:\n  - {name: a, adapter: local, labels: "
                      "[gpu, \"big mem\"]}\n"),
            "gsrt.yaml:2:45: host 'a', key 'labels[1]': 'big mem' is not a "
            "valid label; use letters, digits, '.', '_' and '-'");
}

TEST(ConfigValidateTest, BatchOptionsIsExtraSpelledForSites) {
  StatusOr<Config> c = LoadConfigFromString(
      "hosts:\n  - {name: c, adapter: slurm, batch_options: "
      "[--account=x, --qos=y]}\n",
      "gsrt.yaml", TestEnv());
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->hosts[0].batch.extra,
            (std::vector<std::string>{"--account=x", "--qos=y"}));
  EXPECT_THAT(LoadError("hosts:\n  - {name: c, adapter: local, "
                        "batch_options: [--qos=y]}\n"),
              HasSubstr("key 'batch_options': does not apply to adapter "
                        "local"));
}

TEST(ConfigValidateTest, EveryProblemIsReported) {
  std::string msg = LoadError("hosts:\n  - name: a\n  - adapter: ssh\n");
  EXPECT_EQ(std::count(msg.begin(), msg.end(), '\n'), 2) << msg;
  EXPECT_THAT(msg, HasSubstr("gsrt.yaml:2:5: host 'a': missing required key "
                             "'adapter'"));
  EXPECT_THAT(msg, HasSubstr("gsrt.yaml:3:5: hosts[1]: missing required key "
                             "'name'"));
  EXPECT_THAT(msg, HasSubstr("gsrt.yaml:3:5: hosts[1]: missing required key "
                             "'address'"));
}

TEST(ConfigValidateTest, ConfigBuiltInCodeHasNoPositions) {
  Config config = DefaultConfig(TestEnv());
  ASSERT_TRUE(ValidateConfig(config).ok());
  HostConfig ssh;
  ssh.name = "n1";
  ssh.adapters = {AdapterKind::kSsh};
  ssh.address = "10.0.0.1";
  ssh.slots = 2;
  ssh.batch.partition = "debug";  // meaningless for ssh
  config.hosts.push_back(ssh);
  Status s = ValidateConfig(config);
  EXPECT_EQ(s.message(),
            "host 'n1', key 'partition': does not apply to adapter ssh (it is "
            "for slurm, pbs); remove it or change the adapter");
  config.hosts[1].batch.partition.clear();
  config.hosts[1].slots = 0;
  EXPECT_EQ(ValidateConfig(config).message(),
            "host 'n1', key 'slots': expected a positive integer (1 or more)");
}

TEST(ConfigValidateTest, KnownPoliciesHoldThePapersNames) {
  const auto& p = KnownPolicies();
  for (const char* name :
       {"met",   "mct",       "min-min",    "ftmet",        "ftmct",
        "wqr",   "wqr-ft",    "wqdr-ft",    "ip",           "ie",
        "iy",    "iay",       "p-iy",       "e-ie",         "y-iay",
        "grank", "sufferage", "min-min-ls", "sufferage-ls", "gtp"}) {
    EXPECT_NE(std::find(p.begin(), p.end(), name), p.end()) << name;
  }
  EXPECT_EQ(p.size(), 17u + 12u);
}

TEST(ConfigValidateTest, ClosestName) {
  std::vector<std::string_view> keys = {"slots", "shared_fs", "port"};
  EXPECT_EQ(ClosestName("slot", keys), "slots");
  EXPECT_EQ(ClosestName("SLOTS", keys), "slots");
  EXPECT_EQ(ClosestName("shared-fs", keys), "shared_fs");
  EXPECT_EQ(ClosestName("xyz", keys), "");
  EXPECT_EQ(ClosestName("p", keys), "");  // not a whole rewrite
}

TEST(ConfigValidateTest, DescribeKey) {
  Config config;
  config.hosts.resize(2);
  config.hosts[1].name = "n1";
  EXPECT_EQ(DescribeKey("runtime.retries.app", config),
            "key 'runtime.retries.app'");
  EXPECT_EQ(DescribeKey("hosts[1].slots", config), "host 'n1', key 'slots'");
  EXPECT_EQ(DescribeKey("hosts[1]", config), "host 'n1'");
  EXPECT_EQ(DescribeKey("hosts[0].slots", config), "hosts[0], key 'slots'");
}

TEST(ConfigValidateTest, HostKeysByAdapter) {
  auto has = [](AdapterKind kind, std::string_view key) {
    const auto& keys = HostKeysFor(kind);
    return std::find(keys.begin(), keys.end(), key) != keys.end();
  };
  EXPECT_TRUE(has(AdapterKind::kSsh, "address"));
  EXPECT_TRUE(has(AdapterKind::kSsh, "prefetch"));
  EXPECT_FALSE(has(AdapterKind::kLocal, "prefetch"));
  EXPECT_TRUE(has(AdapterKind::kSsh, "prefetch_window"));
  EXPECT_FALSE(has(AdapterKind::kLocal, "prefetch_window"));
  EXPECT_FALSE(has(AdapterKind::kSsh, "partition"));
  EXPECT_TRUE(has(AdapterKind::kPbs, "partition"));
  EXPECT_TRUE(has(AdapterKind::kLocal, "slots"));
  EXPECT_FALSE(has(AdapterKind::kLocal, "address"));
  EXPECT_TRUE(has(AdapterKind::kSim, "sim"));
}

}  // namespace
}  // namespace gs
