// Loading from files: fixtures, defaults, GSRT_CONFIG, paths, round trip.
#include "runtime/config/config.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "runtime/config/config_yaml.h"

namespace gs {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::StartsWith;

const fs::path kTestdata =
    fs::path(GSRT_SOURCE_DIR) / "runtime/config/testdata";

ConfigEnv TestEnv() {
  ConfigEnv env;
  env.cwd = "/work/proj";
  env.home = "/home/alice";
  env.user = "alice";
  env.cores = 3;
  return env;
}

// A temporary directory, removed with everything in it.
class TempDir {
 public:
  TempDir() {
    std::string templ = (fs::temp_directory_path() / "gsrt-config-XXXXXX");
    path_ = mkdtemp(templ.data());
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }
  void Write(const std::string& name, const std::string& text) const {
    std::ofstream(path_ / name) << text;
  }

 private:
  fs::path path_;
};

// Sets an environment variable for one test and restores it after.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    const char* old = getenv(name);
    if (old != nullptr) old_ = old;
    if (value != nullptr) {
      setenv(name, value, 1);
    } else {
      unsetenv(name);
    }
  }
  ~ScopedEnv() {
    if (old_) {
      setenv(name_, old_->c_str(), 1);
    } else {
      unsetenv(name_);
    }
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

TEST(ConfigTest, FullFixture) {
  StatusOr<Config> loaded =
      LoadConfig((kTestdata / "full.yaml").string(), TestEnv());
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  const Config& c = *loaded;
  const RuntimeConfig& rt = c.runtime;
  EXPECT_EQ(rt.policy, "ftmct");
  EXPECT_EQ(rt.work_dir, "/work/proj/run/.gsrt");
  EXPECT_EQ(rt.history, "/home/alice/gsrt/history.db");
  EXPECT_EQ(rt.retries.app, 2);
  EXPECT_EQ(rt.retries.infra, 7);
  EXPECT_EQ(rt.retries.timeout, 3);
  EXPECT_EQ(rt.retries.backoff, 0.5);
  EXPECT_EQ(rt.retries.backoff_max, 30);
  EXPECT_EQ(rt.retries.unless_exit, (std::vector<int>{3, 4}));
  EXPECT_EQ(rt.timeout,
            (std::map<std::string, Seconds>{{"add", 2.5}, {"multiply", 600}}));
  EXPECT_EQ(rt.replication.mode, ReplicationMode::kDynamic);
  EXPECT_EQ(rt.replication.threshold, 3);
  EXPECT_EQ(rt.replication.cap, 5);
  EXPECT_EQ(rt.rank, (RankWeights{0.7, 0.3, 2, 0.25}));
  EXPECT_EQ(rt.heartbeat, 2.5);
  EXPECT_EQ(rt.stall_timeout, 0);
  EXPECT_EQ(rt.connect_parallel, 3);
  EXPECT_EQ(rt.keep_failed, 0.5);
  EXPECT_EQ(rt.progress, ProgressMode::kNever);
  EXPECT_EQ(rt.workers, WorkerMode::kProcess);
  EXPECT_EQ(rt.worker_max_jobs, 50);
  EXPECT_EQ(rt.worker_max_memory, 0);
  EXPECT_TRUE(rt.reuse);
  EXPECT_EQ(rt.reuse_limit, uint64_t{512} << 20);
  EXPECT_EQ(rt.never_reuse, std::vector<std::string>{"stamp"});
  EXPECT_EQ(rt.hosts,
            (std::map<std::string, std::vector<std::string>>{
                {"add", {"site-b"}}, {"multiply", {"gpu", "laptop"}}}));

  ASSERT_EQ(c.hosts.size(), 5u);
  const HostConfig& n1 = c.hosts[0];
  EXPECT_EQ(n1.name, "node1");
  EXPECT_EQ(n1.adapters, std::vector<AdapterKind>{AdapterKind::kSsh});
  EXPECT_EQ(n1.address, "127.0.0.2");
  EXPECT_EQ(n1.port, 2222);
  EXPECT_EQ(n1.user, "bob");
  EXPECT_EQ(n1.identity, "/home/alice/.ssh/id_ed25519");
  EXPECT_EQ(n1.known_hosts, "/work/proj/keys/known_hosts");
  EXPECT_EQ(n1.host_key_check, HostKeyCheck::kAcceptNew);
  EXPECT_EQ(n1.slots, 4);
  EXPECT_EQ(n1.workdir, "/tmp/gsrt");
  EXPECT_FALSE(n1.shared_fs);
  EXPECT_EQ(n1.env, (std::map<std::string, std::string>{
                        {"LANG", "C"}, {"OMP_NUM_THREADS", "1"}}));
  EXPECT_EQ(n1.labels, (std::vector<std::string>{"gpu", "site-b"}));
  EXPECT_EQ(n1.setup, std::vector<std::string>{"module load cuda/12"});
  EXPECT_EQ(n1.launcher, (std::vector<std::string>{"apptainer", "exec", "--nv",
                                                   "image.sif"}));
  EXPECT_EQ(c.host_defaults.env.at("MODULEPATH"), "/site/modules");
  EXPECT_EQ(c.host_defaults.setup,
            std::vector<std::string>{"module load gcc/12"});
  // What the adapter sees: the defaults' setup first, its own launcher.
  const HostConfig seen = WithHostDefaults(c.host_defaults, n1);
  EXPECT_EQ(seen.setup, (std::vector<std::string>{"module load gcc/12",
                                                  "module load cuda/12"}));
  EXPECT_EQ(seen.launcher, n1.launcher);
  EXPECT_EQ(seen.env.at("MODULEPATH"), "/site/modules");
  EXPECT_EQ(seen.env.at("LANG"), "C");

  const HostConfig& cl = c.hosts[1];
  EXPECT_EQ(cl.adapters,
            (std::vector<AdapterKind>{AdapterKind::kSlurm, AdapterKind::kPbs}));
  EXPECT_EQ(cl.batch.partition, "debug");
  EXPECT_EQ(cl.batch.account, "proj42");
  EXPECT_EQ(cl.batch.qos, "normal");
  EXPECT_EQ(cl.batch.walltime, 86400 + 2 * 3600 + 3 * 60 + 4);
  EXPECT_EQ(cl.batch.cpus_per_task, 2);
  EXPECT_EQ(cl.batch.mem_mb, 4096);
  EXPECT_EQ(cl.batch.max_jobs, 8);
  EXPECT_EQ(cl.batch.mode, BatchMode::kPilot);
  EXPECT_EQ(cl.batch.pilots, 2);
  EXPECT_EQ(cl.batch.extra,
            (std::vector<std::string>{"--exclusive", "--constraint=ib"}));
  EXPECT_EQ(cl.batch.via, "login");
  EXPECT_EQ(cl.batch.listen, "0.0.0.0:7000");
  EXPECT_EQ(cl.slots, 16);
  EXPECT_TRUE(cl.shared_fs);
  EXPECT_EQ(cl.workdir, ".gsrt/hosts/cluster");  // behind `via`: remote

  const HostConfig& login = c.hosts[2];
  EXPECT_EQ(login.adapters,
            (std::vector<AdapterKind>{AdapterKind::kSsh, AdapterKind::kLocal}));
  EXPECT_EQ(login.user, "alice");
  EXPECT_EQ(login.known_hosts, "/home/alice/.ssh/known_hosts");
  EXPECT_EQ(login.slots, 1);
  EXPECT_EQ(login.port, 22);

  EXPECT_EQ(c.hosts[3].workdir, "/work/proj/scratch");
  EXPECT_DOUBLE_EQ(c.hosts[3].memory_gb, 7.5);
  EXPECT_EQ(c.hosts[3].gpus, (std::vector<std::string>{"0", "1"}));
  EXPECT_FALSE(c.hosts[2].gpus.has_value()) << "not given: found at GS_On";
  EXPECT_EQ(c.hosts[3].slots, 3);
  EXPECT_EQ(c.hosts[4].sim, (std::map<std::string, std::string>{
                                {"mtbf", "3600"}, {"speed", "2.0"}}));
  EXPECT_EQ(c.hosts[4].workdir, "/work/proj/run/.gsrt/hosts/sim0");
  EXPECT_EQ(c.FindHost("login"), &c.hosts[2]);
  EXPECT_EQ(c.FindHost("nope"), nullptr);
}

TEST(ConfigTest, MinimalFixture) {
  StatusOr<Config> c =
      LoadConfig((kTestdata / "minimal.yaml").string(), TestEnv());
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->runtime, DefaultConfig(TestEnv()).runtime);
  ASSERT_EQ(c->hosts.size(), 1u);
  EXPECT_EQ(c->hosts[0].name, "here");
  EXPECT_EQ(c->hosts[0].slots, 2);
  EXPECT_EQ(c->hosts[0].workdir, "/work/proj/.gsrt/hosts/here");
}

TEST(ConfigTest, RoundTripOfFullConfig) {
  StatusOr<Config> loaded =
      LoadConfig((kTestdata / "full.yaml").string(), TestEnv());
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  std::string yaml = ConfigToYaml(*loaded);
  StatusOr<Config> again = LoadConfigFromString(yaml, "dump.yaml", TestEnv());
  ASSERT_TRUE(again.ok()) << again.status().ToString() << "\n" << yaml;
  EXPECT_EQ(*again, *loaded) << yaml;
  EXPECT_EQ(ConfigToYaml(*again), yaml);
}

// Pilots that follow the work: the keys survive a dump and a reload, and
// what is left unsaid keeps its default.
TEST(ConfigTest, RoundTripOfPilotScaling) {
  StatusOr<Config> loaded = LoadConfigFromString(
      "hosts:\n"
      "  - {name: grows, adapter: slurm, mode: pilot, pilots: 1,\n"
      "     max_pilots: 4, pilot_linger: 2.5, pilot_reattach: 0}\n"
      "  - {name: fixed, adapter: slurm, mode: pilot, pilots: 2}\n",
      "gsrt.yaml", TestEnv());
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  const BatchConfig& grows = loaded->hosts[0].batch;
  EXPECT_EQ(grows.max_pilots, 4);
  EXPECT_DOUBLE_EQ(grows.pilot_linger, 2.5);
  const BatchConfig& fixed = loaded->hosts[1].batch;
  EXPECT_EQ(fixed.max_pilots, 0);
  EXPECT_DOUBLE_EQ(fixed.pilot_linger, 60);
  EXPECT_DOUBLE_EQ(grows.pilot_reattach, 0);
  EXPECT_DOUBLE_EQ(fixed.pilot_reattach, 120);
  std::string yaml = ConfigToYaml(*loaded);
  EXPECT_NE(yaml.find("pilot_reattach: 0"), std::string::npos) << yaml;
  EXPECT_NE(yaml.find("max_pilots: 4"), std::string::npos) << yaml;
  EXPECT_NE(yaml.find("pilot_linger: 2.5"), std::string::npos) << yaml;
  StatusOr<Config> again = LoadConfigFromString(yaml, "dump.yaml", TestEnv());
  ASSERT_TRUE(again.ok()) << again.status().ToString() << "\n" << yaml;
  EXPECT_EQ(*again, *loaded) << yaml;
}

// The fork server is a value of its own, kept through a dump and a reload.
TEST(ConfigTest, RoundTripOfForkWorkers) {
  StatusOr<Config> loaded = LoadConfigFromString("runtime:\n  workers: fork\n",
                                                 "gsrt.yaml", TestEnv());
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  EXPECT_EQ(loaded->runtime.workers, WorkerMode::kFork);
  std::string yaml = ConfigToYaml(*loaded);
  EXPECT_NE(yaml.find("workers: fork"), std::string::npos) << yaml;
  StatusOr<Config> again = LoadConfigFromString(yaml, "dump.yaml", TestEnv());
  ASSERT_TRUE(again.ok()) << again.status().ToString() << "\n" << yaml;
  EXPECT_EQ(*again, *loaded) << yaml;
}

TEST(ConfigTest, RoundTripOfDefaultConfig) {
  Config config = DefaultConfig(TestEnv());
  StatusOr<Config> again =
      LoadConfigFromString(ConfigToYaml(config), "dump.yaml", TestEnv());
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_EQ(*again, config);
}

TEST(ConfigTest, DefaultConfig) {
  Config c = DefaultConfig(TestEnv());
  EXPECT_EQ(c.runtime.policy, "mct");
  EXPECT_EQ(c.runtime.work_dir, "/work/proj/.gsrt");
  EXPECT_EQ(c.runtime.history, "/work/proj/.gsrt/history.db");
  EXPECT_EQ(c.runtime.retries, RetryBudgets());
  EXPECT_EQ(c.runtime.retries.app, 1);
  EXPECT_EQ(c.runtime.retries.infra, 5);
  EXPECT_EQ(c.runtime.replication.mode, ReplicationMode::kOff);
  EXPECT_EQ(c.runtime.heartbeat, 5);
  EXPECT_EQ(c.runtime.stall_timeout, 60);
  EXPECT_EQ(c.runtime.connect_parallel, 8);
  EXPECT_EQ(c.runtime.keep_failed, 30);
  EXPECT_EQ(c.runtime.workers, WorkerMode::kPersistent);
  EXPECT_EQ(c.runtime.worker_max_jobs, 1000);
  EXPECT_EQ(c.runtime.worker_max_memory, 2048);
  ASSERT_EQ(c.hosts.size(), 1u);
  EXPECT_EQ(c.hosts[0].name, "local");
  EXPECT_EQ(c.hosts[0].adapters, std::vector<AdapterKind>{AdapterKind::kLocal});
  EXPECT_EQ(c.hosts[0].slots, 3);
  EXPECT_EQ(c.hosts[0].workdir, "/work/proj/.gsrt/hosts/local");
  EXPECT_EQ(c.source.name, "");
}

TEST(ConfigTest, FileWithoutHostsGetsTheLocalHost) {
  StatusOr<Config> c =
      LoadConfigFromString("runtime: {policy: met}\n", "gsrt.yaml", TestEnv());
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  Config expected = DefaultConfig(TestEnv());
  expected.runtime.policy = "met";
  EXPECT_EQ(*c, expected);
}

// A type error does not hide the mistakes after it, whether parsing or the
// cross-key rules find them (issue 13).
// A pilot host without `slots` is sized by its pilots' allocations; one with
// a fallback adapter, or in job mode, gets the usual default.
TEST(ConfigTest, PilotHostsWithoutSlotsAreSizedByTheirAllocations) {
  StatusOr<Config> c = LoadConfigFromString(
      "hosts:\n"
      "  - {name: sized, adapter: slurm, mode: pilot, pilots: 3}\n"
      "  - {name: jobs, adapter: slurm}\n"
      "  - {name: fallback, adapter: [slurm, local], mode: pilot}\n"
      "  - {name: given, adapter: pbs, mode: pilot, slots: 6}\n",
      "gsrt.yaml", TestEnv());
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->hosts[0].slots, 0);
  EXPECT_TRUE(c->hosts[0].SlotsFromPilots());
  EXPECT_EQ(c->hosts[1].slots, 1);
  EXPECT_EQ(c->hosts[2].slots, 1);
  EXPECT_FALSE(c->hosts[2].SlotsFromPilots());
  EXPECT_EQ(c->hosts[3].slots, 6);
  EXPECT_FALSE(c->hosts[3].SlotsFromPilots());
  StatusOr<Config> again =
      LoadConfigFromString(ConfigToYaml(*c), "dump.yaml", TestEnv());
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_EQ(*again, *c);
}

TEST(ConfigTest, EveryMistakeIsReportedInOnePass) {
  StatusOr<Config> c = LoadConfigFromString(
      "runtime:\n"
      "  heartbeat: fast\n"
      "hosts:\n"
      "  - name: a\n"
      "    adapter: local\n"
      "    prot: 22\n"
      "  - name: a\n"
      "    adapter: local\n",
      "gsrt.yaml", TestEnv());
  ASSERT_FALSE(c.ok());
  const std::string& m = c.status().message();
  EXPECT_NE(m.find("gsrt.yaml:2:14: key 'runtime.heartbeat': expected"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("gsrt.yaml:6:5: host 'a', key 'prot': unknown key"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("gsrt.yaml:7:5: host 'a', key 'name': host name 'a' is "
                   "already used at gsrt.yaml:4:5"),
            std::string::npos)
      << m;
  EXPECT_EQ(std::count(m.begin(), m.end(), '\n'), 2) << m;
}

// A key that could not be read is not blamed again by the later rules: a
// host whose adapter is misspelt gets no "does not apply" errors.
TEST(ConfigTest, AKeyRefusedByParsingIsNotReportedTwice) {
  StatusOr<Config> c = LoadConfigFromString(
      "hosts:\n"
      "  - name: a\n"
      "    adapter: sshh\n"
      "    address: 127.0.0.2\n"
      "  - name: b\n"
      "    adapter: local\n"
      "    slots: many\n",
      "gsrt.yaml", TestEnv());
  ASSERT_FALSE(c.ok());
  const std::string& m = c.status().message();
  EXPECT_NE(m.find("gsrt.yaml:3:14: host 'a', key 'adapter'"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("gsrt.yaml:7:12: host 'b', key 'slots'"), std::string::npos)
      << m;
  EXPECT_EQ(std::count(m.begin(), m.end(), '\n'), 1) << m;
}

TEST(ConfigTest, ErrorFromFileNamesThePathAsGiven) {
  std::string path = (kTestdata / "bad_slots.yaml").string();
  StatusOr<Config> c = LoadConfig(path, TestEnv());
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().message(),
            path +
                ":7:12: host 'node1', key 'slots': expected a positive "
                "integer (1 or more), got 'four'");
}

TEST(ConfigTest, MissingFile) {
  StatusOr<Config> c = LoadConfig("/nonexistent/gsrt.yaml", TestEnv());
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().code(), Status::Code::kNotFound);
  EXPECT_THAT(c.status().message(), HasSubstr("'/nonexistent/gsrt.yaml'"));
}

TEST(ConfigTest, DirectoryIsNotAConfigFile) {
  TempDir dir;
  StatusOr<Config> c = LoadConfig(dir.path().string(), TestEnv());
  ASSERT_FALSE(c.ok());
  EXPECT_THAT(c.status().message(), HasSubstr("is a directory"));
}

TEST(ConfigTest, LoadDefaultConfigWithoutFile) {
  TempDir dir;
  ScopedEnv unset("GSRT_CONFIG", nullptr);
  StatusOr<Config> c = LoadDefaultConfig(dir.path().string());
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->source.name, "");
  ASSERT_EQ(c->hosts.size(), 1u);
  EXPECT_EQ(c->hosts[0].adapters,
            std::vector<AdapterKind>{AdapterKind::kLocal});
  EXPECT_EQ(c->hosts[0].slots, ConfigEnv::FromProcess().cores);
  EXPECT_EQ(c->runtime.work_dir, (dir.path() / ".gsrt").string());
}

TEST(ConfigTest, LoadDefaultConfigReadsGsrtYaml) {
  TempDir dir;
  ScopedEnv unset("GSRT_CONFIG", nullptr);
  dir.Write("gsrt.yaml",
            "hosts:\n  - {name: here, adapter: local, slots: 7}\n");
  StatusOr<Config> c = LoadDefaultConfig(dir.path().string());
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->source.name, (dir.path() / "gsrt.yaml").string());
  ASSERT_EQ(c->hosts.size(), 1u);
  EXPECT_EQ(c->hosts[0].name, "here");
  EXPECT_EQ(c->hosts[0].slots, 7);
}

TEST(ConfigTest, GsrtConfigWinsOverGsrtYaml) {
  TempDir dir;
  dir.Write("gsrt.yaml", "hosts:\n  - {name: here, adapter: local}\n");
  dir.Write("other.yaml", "hosts:\n  - {name: there, adapter: local}\n");
  ScopedEnv set("GSRT_CONFIG", "other.yaml");  // relative to the cwd given
  StatusOr<Config> c = LoadDefaultConfig(dir.path().string());
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->source.name, "other.yaml");
  EXPECT_EQ(c->hosts[0].name, "there");
}

TEST(ConfigTest, GsrtConfigNamingNoFileIsAnError) {
  TempDir dir;
  ScopedEnv set("GSRT_CONFIG", "missing.yaml");
  StatusOr<Config> c = LoadDefaultConfig(dir.path().string());
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().code(), Status::Code::kNotFound);
  EXPECT_EQ(c.status().message(),
            "GSRT_CONFIG names 'missing.yaml', which does not exist; fix the "
            "path or unset GSRT_CONFIG");
}

TEST(ConfigTest, PathsRelativeAndHome) {
  StatusOr<Config> c = LoadConfigFromString(
      "runtime:\n  work_dir: ../out/\n  history: ~/h.db\n", "g", TestEnv());
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->runtime.work_dir, "/work/out");
  EXPECT_EQ(c->runtime.history, "/home/alice/h.db");
  c = LoadConfigFromString("runtime:\n  work_dir: /abs/dir\n", "g", TestEnv());
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->runtime.work_dir, "/abs/dir");
  EXPECT_EQ(c->runtime.history, "/abs/dir/history.db");
}

TEST(ConfigTest, TildeWithoutHomeIsAnError) {
  ConfigEnv env = TestEnv();
  env.home.clear();
  StatusOr<Config> c =
      LoadConfigFromString("runtime:\n  history: ~/h.db\n", "gsrt.yaml", env);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().message(),
            "gsrt.yaml:2:3: key 'runtime.history': '~/' needs $HOME, which is "
            "not set; write an absolute path");
}

TEST(ConfigTest, TildeUserIsNotExpanded) {
  StatusOr<Config> c = LoadConfigFromString(
      "hosts:\n  - {name: a, adapter: ssh, address: h, identity: ~bob/key}\n",
      "gsrt.yaml", TestEnv());
  ASSERT_FALSE(c.ok());
  EXPECT_THAT(c.status().message(),
              StartsWith("gsrt.yaml:2:41: host 'a', key 'identity': only a "
                         "leading '~/' is expanded"));
}

TEST(ConfigTest, RemoteWorkdirIsLeftForTheRemoteSide) {
  StatusOr<Config> c = LoadConfigFromString(
      "hosts:\n"
      "  - {name: a, adapter: ssh, address: h, workdir: ~/w}\n"
      "  - {name: b, adapter: ssh, address: h}\n",
      "g", TestEnv());
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->hosts[0].workdir, "~/w");
  EXPECT_EQ(c->hosts[1].workdir, ".gsrt/hosts/b");
}

TEST(ConfigTest, EnvFromProcess) {
  ConfigEnv env = ConfigEnv::FromProcess();
  EXPECT_GE(env.cores, 1);
  EXPECT_TRUE(fs::path(env.cwd).is_absolute()) << env.cwd;
}

}  // namespace
}  // namespace gs
