#include "runtime/deploy/deploy_context.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "runtime/history/history_test_util.h"
#include "runtime/history/sqlite_db.h"

namespace gs {
namespace {

using testing::ReadBytes;
using testing::TempDir;
using testing::WriteBytes;

class DeployContextTest : public ::testing::Test {
 protected:
  ConfigEnv Env() {
    ConfigEnv env;
    env.cwd = std::filesystem::path(dir_.File("x")).parent_path().string();
    env.home = dir_.File("home");
    env.user = "tester";
    env.cores = 2;
    return env;
  }
  StatusOr<Config> Load(const std::string& yaml) {
    WriteBytes(dir_.File("gsrt.yaml"), yaml);
    return LoadDeployConfig("gsrt.yaml", Env());
  }
  TempDir dir_;
};

constexpr char kTwoHosts[] =
    "hosts:\n"
    "  - name: alpha\n"
    "    adapter: local\n"
    "  - name: beta\n"
    "    adapter: local\n";

TEST_F(DeployContextTest, SelectsAllOrOneHost) {
  StatusOr<Config> config = Load(kTwoHosts);
  ASSERT_TRUE(config.ok()) << config.status().ToString();
  auto all = SelectHosts(*config, "");
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all->size(), 2u);
  auto one = SelectHosts(*config, "beta");
  ASSERT_TRUE(one.ok());
  ASSERT_EQ(one->size(), 1u);
  EXPECT_EQ((*one)[0]->name, "beta");
}

TEST_F(DeployContextTest, UnknownHostListsTheConfiguredNames) {
  StatusOr<Config> config = Load(kTwoHosts);
  ASSERT_TRUE(config.ok());
  auto none = SelectHosts(*config, "nosuch");
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.status().code(), Status::Code::kNotFound);
  EXPECT_EQ(none.status().message(),
            "no host named 'nosuch' in gsrt.yaml; the configured hosts are: "
            "alpha, beta");
}

TEST_F(DeployContextTest, MalformedConfigNamesFileAndLine) {
  StatusOr<Config> config = Load(
      "hosts:\n"
      "  - name: alpha\n"
      "    adapter: local\n"
      "    slots: four\n");
  ASSERT_FALSE(config.ok());
  EXPECT_NE(config.status().message().find("gsrt.yaml:4:"), std::string::npos)
      << config.status().message();
  EXPECT_NE(config.status().message().find("slots"), std::string::npos);
}

TEST_F(DeployContextTest, MissingConfigFileIsAnError) {
  StatusOr<Config> config = LoadDeployConfig("nosuch.yaml", Env());
  ASSERT_FALSE(config.ok());
  EXPECT_NE(config.status().message().find("nosuch.yaml"), std::string::npos);
}

TEST_F(DeployContextTest, ReportOnMissingHistoryCreatesNothing) {
  StatusOr<Config> config = Load(kTwoHosts);
  ASSERT_TRUE(config.ok());
  auto history = OpenHistoryIfExists(*config);
  ASSERT_TRUE(history.ok()) << history.status().ToString();
  EXPECT_EQ(*history, nullptr);
  EXPECT_FALSE(std::filesystem::exists(config->runtime.history));
  EXPECT_FALSE(std::filesystem::exists(
      std::filesystem::path(config->runtime.history).parent_path()));
}

TEST_F(DeployContextTest, NewerSchemaIsRefusedAndLeftByteIdentical) {
  StatusOr<Config> config = Load(kTwoHosts);
  ASSERT_TRUE(config.ok());
  {
    auto made = OpenHistoryForWrite(*config);
    ASSERT_TRUE(made.ok()) << made.status().ToString();
  }
  {
    auto db = SqliteDb::Open(config->runtime.history,
                             SqliteDb::Mode::kReadWrite, 1000);
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE((*db)->Exec("PRAGMA journal_mode = DELETE").ok());
    ASSERT_TRUE((*db)->Exec("PRAGMA user_version = 99").ok());
  }
  const std::string before = ReadBytes(config->runtime.history);
  for (int write = 0; write < 2; ++write) {
    auto history =
        write ? OpenHistoryForWrite(*config) : OpenHistoryIfExists(*config);
    ASSERT_FALSE(history.ok());
    EXPECT_NE(history.status().message().find("schema version 99"),
              std::string::npos)
        << history.status().message();
  }
  EXPECT_EQ(ReadBytes(config->runtime.history), before);
}

TEST_F(DeployContextTest, NotADatabaseIsRefusedAndLeftByteIdentical) {
  StatusOr<Config> config = Load(kTwoHosts);
  ASSERT_TRUE(config.ok());
  std::filesystem::create_directories(
      std::filesystem::path(config->runtime.history).parent_path());
  const std::string junk(4096, 'x');
  WriteBytes(config->runtime.history, junk);
  auto history = OpenHistoryIfExists(*config);
  ASSERT_FALSE(history.ok());
  EXPECT_NE(history.status().message().find(config->runtime.history),
            std::string::npos);
  EXPECT_EQ(ReadBytes(config->runtime.history), junk);
}

TEST_F(DeployContextTest, FilesSharedByLocalAndSharedFsHosts) {
  HostConfig local;
  local.adapters = {AdapterKind::kLocal};
  HostConfig remote;
  remote.adapters = {AdapterKind::kSsh};
  EXPECT_TRUE(SharesMasterFiles(local));
  EXPECT_FALSE(SharesMasterFiles(remote));
  remote.shared_fs = true;
  EXPECT_TRUE(SharesMasterFiles(remote));
  HostConfig batch;
  batch.adapters = {AdapterKind::kSlurm};
  EXPECT_TRUE(IsBatchHost(batch));
  EXPECT_FALSE(IsBatchHost(local));
}

}  // namespace
}  // namespace gs
