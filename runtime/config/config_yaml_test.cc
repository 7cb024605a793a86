// Parsing errors: each names file:line:col, the key, what was expected.
#include "runtime/config/config_yaml.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace gs {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

// One ssh host on lines 1-4; tests append host keys from line 5 on.
constexpr char kHost[] =
    "hosts:\n"
    "  - name: n1\n"
    "    adapter: ssh\n"
    "    address: h\n";

std::string ParseError(const std::string& yaml) {
  StatusOr<Config> result = ParseConfigYaml(yaml, "gsrt.yaml");
  EXPECT_FALSE(result.ok()) << "parsed:\n" << yaml;
  if (result.ok()) return "";
  EXPECT_EQ(result.status().code(), Status::Code::kInvalidArgument);
  return result.status().message();
}

TEST(ConfigYamlTest, SyntaxErrorNamesLine) {
  std::string msg = ParseError(
      "hosts:\n"
      "  - name: a\n"
      "    adapter: [local\n"
      "    slots: 2\n");
  EXPECT_THAT(msg, StartsWith("gsrt.yaml:4:"));
  EXPECT_THAT(msg, HasSubstr("YAML syntax error"));
  EXPECT_THAT(msg, HasSubstr("check the indentation"));
}

TEST(ConfigYamlTest, BadIndentationIsASyntaxError) {
  std::string msg = ParseError(
      "runtime:\n"
      "  policy: mct\n"
      "   heartbeat: 3\n");
  EXPECT_THAT(msg, StartsWith("gsrt.yaml:3:"));
  EXPECT_THAT(msg, HasSubstr("YAML syntax error"));
}

TEST(ConfigYamlTest, UnknownTopLevelKeySuggestsClosest) {
  EXPECT_EQ(ParseError("host:\n  - name: a\n"),
            "gsrt.yaml:1:1: key 'host': unknown key; did you mean 'hosts'?");
}

TEST(ConfigYamlTest, UnknownHostKeySuggestsClosest) {
  EXPECT_EQ(ParseError(std::string(kHost) + "    slot: 2\n"),
            "gsrt.yaml:5:5: host 'n1', key 'slot': unknown key; did you mean "
            "'slots'?");
}

TEST(ConfigYamlTest, UnknownKeyWithoutCloseMatchListsKnownKeys) {
  std::string msg = ParseError("runtime:\n  frobnicate: 1\n");
  EXPECT_THAT(msg, StartsWith("gsrt.yaml:2:3: key 'runtime.frobnicate': "
                              "unknown key; known keys: policy, work_dir"));
}

TEST(ConfigYamlTest, SlotsNotANumber) {
  EXPECT_EQ(ParseError(std::string(kHost) + "    slots: four\n"),
            "gsrt.yaml:5:12: host 'n1', key 'slots': expected a positive "
            "integer (1 or more), got 'four'");
}

TEST(ConfigYamlTest, SlotsBelowOne) {
  EXPECT_THAT(ParseError(std::string(kHost) + "    slots: 0\n"),
              StartsWith("gsrt.yaml:5:12: host 'n1', key 'slots': expected a "
                         "positive integer (1 or more), got '0'"));
  EXPECT_THAT(ParseError(std::string(kHost) + "    slots: -2\n"),
              StartsWith("gsrt.yaml:5:12: host 'n1', key 'slots': expected a "
                         "positive integer"));
}

TEST(ConfigYamlTest, SlotsWithNoValuePointsAtTheKey) {
  EXPECT_EQ(ParseError(std::string(kHost) + "    slots:\n    port: 22\n"),
            "gsrt.yaml:5:5: host 'n1', key 'slots': expected a positive "
            "integer (1 or more), got nothing");
}

TEST(ConfigYamlTest, PortOutOfRange) {
  EXPECT_EQ(ParseError(std::string(kHost) + "    port: 70000\n"),
            "gsrt.yaml:5:11: host 'n1', key 'port': expected a port number "
            "(1-65535), got '70000'");
}

TEST(ConfigYamlTest, PrefetchDepthAndItsDefault) {
  StatusOr<Config> given =
      ParseConfigYaml(std::string(kHost) + "    prefetch: 0\n", "gsrt.yaml");
  ASSERT_TRUE(given.ok()) << given.status().ToString();
  EXPECT_EQ(given->hosts[0].PrefetchDepth(), 0);
  StatusOr<Config> plain =
      ParseConfigYaml(std::string(kHost) + "    slots: 3\n", "gsrt.yaml");
  ASSERT_TRUE(plain.ok()) << plain.status().ToString();
  EXPECT_EQ(plain->hosts[0].PrefetchDepth(), 3) << "ssh: its slots";
  HostConfig local;
  local.adapters = {AdapterKind::kLocal};
  local.slots = 4;
  EXPECT_EQ(local.PrefetchDepth(), 0) << "nothing to hide on a local host";
  EXPECT_EQ(ParseError(std::string(kHost) + "    prefetch: -1\n"),
            "gsrt.yaml:5:15: host 'n1', key 'prefetch': expected an integer "
            "(0 or more), got '-1'");
}

TEST(ConfigYamlTest, PrefetchWindowAndItsDefault) {
  StatusOr<Config> given = ParseConfigYaml(
      std::string(kHost) + "    prefetch_window: 0.1\n", "gsrt.yaml");
  ASSERT_TRUE(given.ok()) << given.status().ToString();
  EXPECT_DOUBLE_EQ(given->hosts[0].PrefetchWindow(), 0.1);
  StatusOr<Config> plain =
      ParseConfigYaml(std::string(kHost) + "    slots: 3\n", "gsrt.yaml");
  ASSERT_TRUE(plain.ok()) << plain.status().ToString();
  EXPECT_DOUBLE_EQ(plain->hosts[0].PrefetchWindow(), 0.02) << "ssh: 20 ms";
  HostConfig local;
  local.adapters = {AdapterKind::kLocal};
  EXPECT_EQ(local.PrefetchWindow(), 0);
  EXPECT_EQ(ParseError(std::string(kHost) + "    prefetch_window: soon\n"),
            "gsrt.yaml:5:22: host 'n1', key 'prefetch_window': expected "
            "seconds (0 or more), such as 0.02, got 'soon'");
}

TEST(ConfigYamlTest, InvalidAdapterSuggestsClosest) {
  EXPECT_EQ(ParseError("hosts:\n  - name: a\n    adapter: shh\n"),
            "gsrt.yaml:3:14: host 'a', key 'adapter': expected one of local, "
            "ssh, slurm, pbs, sim, got 'shh'; did you mean 'ssh'?");
}

TEST(ConfigYamlTest, InvalidAdapterInList) {
  EXPECT_EQ(ParseError("hosts:\n  - name: a\n    adapter: [ssh, condor]\n"),
            "gsrt.yaml:3:20: host 'a', key 'adapter[1]': expected one of "
            "local, ssh, slurm, pbs, sim, got 'condor'");
}

TEST(ConfigYamlTest, InvalidEnumValues) {
  EXPECT_EQ(ParseError(std::string(kHost) + "    host_key_check: lax\n"),
            "gsrt.yaml:5:21: host 'n1', key 'host_key_check': expected one of "
            "strict, accept-new, got 'lax'");
  EXPECT_EQ(ParseError("runtime:\n  replication: {mode: sometimes}\n"),
            "gsrt.yaml:2:23: key 'runtime.replication.mode': expected one of "
            "off, fixed, dynamic, got 'sometimes'");
  EXPECT_EQ(ParseError("runtime:\n  progress: alway\n"),
            "gsrt.yaml:2:13: key 'runtime.progress': expected one of auto, "
            "always, never, got 'alway'; did you mean 'always'?");
}

TEST(ConfigYamlTest, PasswordIsRefused) {
  std::string msg = ParseError(std::string(kHost) + "    password: hunter2\n");
  EXPECT_EQ(msg,
            "gsrt.yaml:5:5: host 'n1', key 'password': passwords are not "
            "accepted in config files; use identity (a private key file) or "
            "ssh-agent, and remove this key");
  // The secret itself is never echoed.
  EXPECT_THAT(msg, ::testing::Not(HasSubstr("hunter2")));
}

TEST(ConfigYamlTest, DuplicateKey) {
  EXPECT_EQ(ParseError(std::string(kHost) + "    slots: 2\n    slots: 3\n"),
            "gsrt.yaml:6:5: host 'n1', key 'slots': given twice (first on "
            "line 5); keep one");
}

TEST(ConfigYamlTest, EmptyHostsList) {
  EXPECT_THAT(ParseError("hosts: []\n"),
              StartsWith("gsrt.yaml:1:8: key 'hosts': expected a list of "
                         "hosts ('- name: ...' entries), got an empty list"));
  EXPECT_THAT(ParseError("hosts:\n"),
              StartsWith("gsrt.yaml:1:1: key 'hosts': expected a list of "
                         "hosts ('- name: ...' entries), got nothing"));
}

TEST(ConfigYamlTest, HostEntryNotAMapping) {
  EXPECT_THAT(ParseError("hosts:\n  - node1\n"),
              StartsWith("gsrt.yaml:2:5: hosts[0]: expected a mapping"));
}

TEST(ConfigYamlTest, WrongTypesInRuntime) {
  EXPECT_THAT(ParseError("runtime: fast\n"),
              StartsWith("gsrt.yaml:1:10: key 'runtime': expected a mapping"));
  EXPECT_EQ(ParseError("runtime:\n  retries: {app: -1}\n"),
            "gsrt.yaml:2:18: key 'runtime.retries.app': expected a "
            "non-negative integer, got '-1'");
  EXPECT_EQ(ParseError("runtime:\n  heartbeat: 0\n"),
            "gsrt.yaml:2:14: key 'runtime.heartbeat': expected a number of "
            "seconds greater than 0, got '0'");
  EXPECT_EQ(ParseError("runtime:\n  timeout: {multiply: soon}\n"),
            "gsrt.yaml:2:23: key 'runtime.timeout.multiply': expected a "
            "number of seconds greater than 0, got 'soon'");
  EXPECT_EQ(ParseError("runtime:\n  retries: {unless_exit: [3, 300]}\n"),
            "gsrt.yaml:2:30: key 'runtime.retries.unless_exit[1]': expected "
            "an exit code (0-255), got '300'");
  EXPECT_EQ(ParseError("runtime:\n  rank: {alpha: high}\n"),
            "gsrt.yaml:2:17: key 'runtime.rank.alpha': expected a number (0 "
            "or more), got 'high'");
}

TEST(ConfigYamlTest, WrongTypesInHost) {
  EXPECT_EQ(ParseError(std::string(kHost) + "    shared_fs: maybe\n"),
            "gsrt.yaml:5:16: host 'n1', key 'shared_fs': expected true or "
            "false, got 'maybe'");
  EXPECT_EQ(ParseError(std::string(kHost) + "    env: {A: [1, 2]}\n"),
            "gsrt.yaml:5:14: host 'n1', key 'env.A': expected a string, got "
            "a list");
  EXPECT_EQ(ParseError("hosts:\n  - name: n1\n    adapter: ssh\n"
                       "    address: {x: 1}\n"),
            "gsrt.yaml:4:14: host 'n1', key 'address': expected a string, "
            "got a mapping");
  EXPECT_EQ(ParseError("hosts:\n  - name: c\n    adapter: slurm\n"
                       "    walltime: 1h\n"),
            "gsrt.yaml:4:15: host 'c', key 'walltime': expected a time limit "
            "such as 90 (minutes), 1:30:00 or 2-00:00:00, got '1h'");
  EXPECT_EQ(ParseError("hosts:\n  - name: c\n    adapter: slurm\n"
                       "    mem: 4GB\n"),
            "gsrt.yaml:4:10: host 'c', key 'mem': expected a memory size such "
            "as 4096 (MiB), 512M or 4G, got '4GB'");
}

TEST(ConfigYamlTest, ReportsEveryProblemOnePerLine) {
  std::string msg = ParseError(std::string(kHost) +
                               "    slots: four\n"
                               "    prot: 22\n");
  EXPECT_EQ(msg,
            "gsrt.yaml:5:12: host 'n1', key 'slots': expected a positive "
            "integer (1 or more), got 'four'\n"
            "gsrt.yaml:6:5: host 'n1', key 'prot': unknown key; did you mean "
            "'port'?");
}

TEST(ConfigYamlTest, MoreThanOneDocument) {
  EXPECT_THAT(ParseError("runtime: {policy: mct}\n---\nhosts: []\n"),
              HasSubstr("more than one YAML document"));
}

// Found by fuzz/config_fuzzer: yaml-cpp's LoadAll never returned on this
// text, so GS_On hung on such a gsrt.yaml. (A hang here ends at ctest's
// timeout.)
TEST(ConfigYamlTest, MalformedTextThatLoopedYamlCppEndsWithAnError) {
  StatusOr<Config> config = ParseConfigYaml(",name: hl: 5\n", "gsrt.yaml");
  ASSERT_FALSE(config.ok());
  EXPECT_THAT(config.status().message(), ::testing::StartsWith("gsrt.yaml:1:"));
  EXPECT_THAT(config.status().message(),
              ::testing::Not(HasSubstr("more than one YAML document")));
}

// Found by fuzz/config_fuzzer: a sim key with bytes that are not UTF-8
// loaded, but ConfigToYaml wrote it back as another key.
TEST(ConfigYamlTest, TextThatIsNotUtf8IsRefusedWhereItStops) {
  StatusOr<Config> config = ParseConfigYaml(
      "hosts:\n  - name: fast\n    adapter: sim\n    sim: {b\xd9\xff\x7f: 1}\n",
      "gsrt.yaml");
  ASSERT_FALSE(config.ok());
  EXPECT_THAT(config.status().message(),
              ::testing::StartsWith("gsrt.yaml:4:12: this is not UTF-8 text"));
  EXPECT_TRUE(ParseConfigYaml("hosts:\n  - name: caf\xc3\xa9\n", "gsrt.yaml")
                  .status()
                  .message()
                  .find("UTF-8") == std::string::npos);
}

TEST(ConfigYamlTest, EmptyTextGivesDefaults) {
  StatusOr<Config> config = ParseConfigYaml("# nothing\n", "gsrt.yaml");
  ASSERT_TRUE(config.ok()) << config.status().ToString();
  EXPECT_EQ(config->runtime, RuntimeConfig());
  EXPECT_TRUE(config->hosts.empty());
}

TEST(ConfigYamlTest, RecordsKeyPositions) {
  StatusOr<Config> config =
      ParseConfigYaml(std::string(kHost) + "    slots: 3\n", "f.yaml");
  ASSERT_TRUE(config.ok()) << config.status().ToString();
  EXPECT_EQ(config->source.Where("hosts[0].slots"), "f.yaml:5:5: ");
  EXPECT_EQ(config->source.Where("hosts[0]"), "f.yaml:2:5: ");
  // An unrecorded key falls back to its nearest recorded parent.
  EXPECT_EQ(config->source.Where("hosts[0].partition"), "f.yaml:2:5: ");
  EXPECT_EQ(config->source.Where("runtime.policy"), "f.yaml: ");
}

TEST(ConfigYamlTest, ExtraAsOneStringIsSplit) {
  StatusOr<Config> config = ParseConfigYaml(
      "hosts:\n  - {name: c, adapter: slurm, extra: \"--exclusive  -N 1\"}\n",
      "gsrt.yaml");
  ASSERT_TRUE(config.ok()) << config.status().ToString();
  EXPECT_EQ(config->hosts[0].batch.extra,
            (std::vector<std::string>{"--exclusive", "-N", "1"}));
}

}  // namespace
}  // namespace gs
