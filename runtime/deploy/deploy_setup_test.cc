#include "runtime/deploy/deploy_setup.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>

#include "adapters/local/local_installer.h"
#include "runtime/base/process_spawn.h"
#include "runtime/deploy/deploy_format.h"
#include "runtime/history/history_test_util.h"
#include "tests/support/sshd_testbed.h"

namespace gs {
namespace {

using testing::ReadBytes;
using testing::TempDir;
using testing::WriteBytes;

class DeploySetupTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.ok());
    master_ = dir_.File("build/app");
    std::filesystem::create_directories(dir_.File("build"));
  }

  // A worker script answering --version like gs_worker_main.
  void WriteWorker(const std::string& path, const std::string& body) {
    WriteBytes(path, "#!/bin/sh\n" + body);
    ::chmod(path.c_str(), 0755);
  }

  static HostConfig Host(const std::string& name, AdapterKind kind,
                         const std::string& workdir = "") {
    HostConfig h;
    h.name = name;
    h.adapters = {kind};
    h.workdir = workdir;
    return h;
  }

  std::vector<SetupHostResult> Setup(const std::vector<HostConfig>& hosts,
                                     InstallerMaker make) {
    std::vector<const HostConfig*> ptrs;
    for (const HostConfig& h : hosts) ptrs.push_back(&h);
    // The worker only: the agent is the ssh tests' business.
    SetupRequest request = MakeSetupRequest("build/app", dir_.File(""));
    request.agent.clear();
    request.agent_problem.clear();
    return SetupHosts(ptrs, request, make);
  }

  // Every host through this machine's installer (stands in for ssh).
  static InstallerMaker LocalEverywhere() {
    return [](const HostConfig&) -> StatusOr<std::unique_ptr<HostInstaller>> {
      return MakeLocalInstaller(10);
    };
  }

  TempDir dir_;
  std::string master_;
};

TEST_F(DeploySetupTest, WorkerIsAppWorkerBesideTheMaster) {
  SetupRequest r = MakeSetupRequest("build/app", "/home/u/proj");
  EXPECT_EQ(r.worker, "/home/u/proj/build/app-worker");
  EXPECT_EQ(MakeSetupRequest("/opt/app", "/x").worker, "/opt/app-worker");
}

TEST_F(DeploySetupTest, SharedHostWithAWorkingWorkerIsReady) {
  WriteWorker(master_ + "-worker", "echo 'gsrt-worker app 0.1.0'\n");
  auto results =
      Setup({Host("local", AdapterKind::kLocal)}, DefaultInstallerMaker(10));
  ASSERT_EQ(results.size(), 1u);
  ASSERT_TRUE(results[0].ready()) << FormatSetupResults(results);
  ASSERT_EQ(results[0].programs.size(), 1u);
  EXPECT_EQ(results[0].programs[0].check.version, "gsrt-worker app 0.1.0");
  EXPECT_FALSE(results[0].programs[0].check.uploaded);
  EXPECT_EQ(results[0].programs[0].program.host_path, master_ + "-worker");
}

TEST_F(DeploySetupTest, SharedHostReportsAMissingWorker) {
  auto results =
      Setup({Host("local", AdapterKind::kLocal)}, DefaultInstallerMaker(10));
  ASSERT_FALSE(results[0].ready());
  EXPECT_NE(results[0].programs[0].problem.find("does not exist"),
            std::string::npos);
  const std::string text = FormatSetupResults(results);
  EXPECT_NE(text.find("MISSING"), std::string::npos) << text;
  EXPECT_NE(text.find("0 of 1 hosts ready"), std::string::npos) << text;
}

TEST_F(DeploySetupTest, WorkerThatDoesNotStartIsReportedWithItsStderr) {
  WriteWorker(master_ + "-worker",
              "echo 'error while loading shared libraries: libfoo.so' >&2\n"
              "exit 127\n");
  auto results =
      Setup({Host("local", AdapterKind::kLocal)}, DefaultInstallerMaker(10));
  ASSERT_FALSE(results[0].ready());
  const std::string& problem = results[0].programs[0].problem;
  EXPECT_NE(problem.find("exited with code 127"), std::string::npos) << problem;
  EXPECT_NE(problem.find("libfoo.so"), std::string::npos) << problem;
}

TEST_F(DeploySetupTest, NotExecutableWorker) {
  WriteBytes(master_ + "-worker", "#!/bin/sh\n");
  ::chmod((master_ + "-worker").c_str(), 0644);
  auto results =
      Setup({Host("local", AdapterKind::kLocal)}, DefaultInstallerMaker(10));
  ASSERT_FALSE(results[0].ready());
  EXPECT_NE(results[0].programs[0].problem.find("chmod +x"), std::string::npos);
}

TEST_F(DeploySetupTest, NonSharedHostGetsACopyOnlyWhenMissingOrDifferent) {
  WriteWorker(master_ + "-worker", "echo 'gsrt-worker app 0.1.0'\n");
  const HostConfig remote =
      Host("remote", AdapterKind::kSsh, dir_.File("remote"));
  const std::string there = dir_.File("remote") + "/bin/app-worker";

  auto first = Setup({remote}, LocalEverywhere());
  ASSERT_TRUE(first[0].ready()) << FormatSetupResults(first);
  EXPECT_FALSE(first[0].shares_files);
  EXPECT_EQ(first[0].programs[0].program.host_path, there);
  EXPECT_TRUE(first[0].programs[0].check.uploaded);
  EXPECT_EQ(ReadBytes(there), ReadBytes(master_ + "-worker"));

  auto second = Setup({remote}, LocalEverywhere());
  ASSERT_TRUE(second[0].ready());
  EXPECT_FALSE(second[0].programs[0].check.uploaded);

  WriteWorker(master_ + "-worker", "echo 'gsrt-worker app 0.2.0'\n");
  auto third = Setup({remote}, LocalEverywhere());
  ASSERT_TRUE(third[0].ready());
  EXPECT_TRUE(third[0].programs[0].check.uploaded);
  EXPECT_EQ(third[0].programs[0].check.version, "gsrt-worker app 0.2.0");
}

TEST_F(DeploySetupTest, AgentGoesOnlyToHostsThatDoNotShareFiles) {
  SetupRequest request = MakeSetupRequest("app", "/p");
  request.agent = "/opt/gsrt/bin/gsrt-agent";
  const HostConfig remote = Host("n1", AdapterKind::kSsh, ".gsrt/hosts/n1");
  auto programs = SetupPrograms(remote, request);
  ASSERT_EQ(programs.size(), 2u);
  EXPECT_EQ(programs[0].host_path, ".gsrt/hosts/n1/bin/app-worker");
  EXPECT_EQ(programs[1].role, "agent");
  EXPECT_EQ(programs[1].host_path, ".gsrt/hosts/n1/bin/gsrt-agent");
  EXPECT_EQ(SetupPrograms(Host("l", AdapterKind::kLocal), request).size(), 1u);
}

TEST_F(DeploySetupTest, MissingAgentIsReportedForHostsThatNeedIt) {
  SetupRequest request = MakeSetupRequest("app", "/p");
  request.agent.clear();
  request.agent_problem = "gsrt-agent not found; set GSRT_AGENT";
  const HostConfig remote = Host("n1", AdapterKind::kSsh, "w");
  const HostConfig local = Host("l", AdapterKind::kLocal);
  auto results = SetupHosts({&remote, &local}, request, LocalEverywhere());
  ASSERT_EQ(results[0].programs.size(), 2u);
  EXPECT_FALSE(results[0].programs[1].ok);
  EXPECT_EQ(results[0].programs[1].problem, request.agent_problem);
  EXPECT_EQ(results[1].programs.size(), 1u);  // shares files: no agent
}

TEST_F(DeploySetupTest, HostWithoutAnInstallerIsUnreachable) {
  WriteWorker(master_ + "-worker", "echo v\n");
  auto results =
      Setup({Host("n1", AdapterKind::kSlurm, "w")}, DefaultInstallerMaker(10));
  ASSERT_FALSE(results[0].ready());
  EXPECT_NE(results[0].error.find("setup of slurm hosts"), std::string::npos);
  EXPECT_NE(FormatSetupResults(results).find("UNREACHABLE"), std::string::npos);
}

// One real sshd on 127.0.0.2 for these tests, started only when they run.
// No skipping: when it cannot start, they fail with the script's output.
class DeploySetupSshTest : public DeploySetupTest {
 protected:
  static void SetUpTestSuite() {
    bed_ = new gs::testing::SshdTestbed(1);
    error_ = bed_->Start();
  }
  static void TearDownTestSuite() {
    bed_->Stop();
    delete bed_;
    bed_ = nullptr;
  }
  void SetUp() override {
    DeploySetupTest::SetUp();
    ASSERT_EQ(error_, "") << "cannot start the sshd test host";
  }

  HostConfig SshHost(const std::string& address) const {
    HostConfig h = Host("node1", AdapterKind::kSsh, dir_.File("remote"));
    h.address = address;
    h.port = bed_->port();
    h.identity = bed_->identity();
    h.known_hosts = bed_->known_hosts();
    return h;
  }

  std::vector<SetupHostResult> SetupSsh(const HostConfig& host) {
    SetupRequest request = MakeSetupRequest("build/app", dir_.File(""));
    request.agent = dir_.File("build/gsrt-agent-under-test");
    request.agent_problem.clear();
    return SetupHosts({&host}, request, DefaultInstallerMaker(20));
  }

  static gs::testing::SshdTestbed* bed_;
  static std::string error_;
};

gs::testing::SshdTestbed* DeploySetupSshTest::bed_ = nullptr;
std::string DeploySetupSshTest::error_;

TEST_F(DeploySetupSshTest, UploadsOnceAndReportsAWorkerThatDoesNotStart) {
  WriteWorker(master_ + "-worker", "echo 'gsrt-worker app 0.1.0'\n");
  WriteWorker(dir_.File("build/gsrt-agent-under-test"),
              "echo 'gsrt-agent 0.1.0'\n");
  const HostConfig host = SshHost(gs::testing::SshdTestbed::Address(1));
  const std::string bin = dir_.File("remote") + "/bin/";

  auto first = SetupSsh(host);
  ASSERT_TRUE(first[0].ready()) << FormatSetupResults(first);
  EXPECT_FALSE(first[0].shares_files);
  ASSERT_EQ(first[0].programs.size(), 2u);
  EXPECT_EQ(first[0].programs[0].program.host_path, bin + "app-worker");
  EXPECT_EQ(first[0].programs[1].program.host_path, bin + "gsrt-agent");
  EXPECT_TRUE(first[0].programs[0].check.uploaded);
  EXPECT_TRUE(first[0].programs[1].check.uploaded);
  EXPECT_EQ(first[0].programs[0].check.version, "gsrt-worker app 0.1.0");
  EXPECT_EQ(first[0].programs[1].check.version, "gsrt-agent 0.1.0");
  EXPECT_EQ(ReadBytes(bin + "app-worker"), ReadBytes(master_ + "-worker"));

  auto second = SetupSsh(host);
  ASSERT_TRUE(second[0].ready()) << FormatSetupResults(second);
  EXPECT_FALSE(second[0].programs[0].check.uploaded);
  EXPECT_FALSE(second[0].programs[1].check.uploaded);

  WriteWorker(master_ + "-worker", "echo 'libfoo.so: not found' >&2\nexit 1\n");
  auto third = SetupSsh(host);
  ASSERT_FALSE(third[0].ready());
  EXPECT_TRUE(third[0].error.empty()) << third[0].error;
  EXPECT_FALSE(third[0].programs[0].ok);
  EXPECT_NE(third[0].programs[0].problem.find("libfoo.so"), std::string::npos)
      << third[0].programs[0].problem;
  EXPECT_TRUE(third[0].programs[1].ok);  // the agent still starts
  EXPECT_EQ(ReadBytes(bin + "app-worker"), ReadBytes(master_ + "-worker"));
}

TEST_F(DeploySetupSshTest, HostThatDoesNotAnswerIsUnreachable) {
  WriteWorker(master_ + "-worker", "echo v\n");
  // No sshd listens on 127.0.0.9.
  auto results = SetupSsh(SshHost("127.0.0.9"));
  ASSERT_FALSE(results[0].ready());
  EXPECT_NE(results[0].error.find("127.0.0.9"), std::string::npos)
      << results[0].error;
  EXPECT_NE(FormatSetupResults(results).find("UNREACHABLE"), std::string::npos);
}

}  // namespace
}  // namespace gs
