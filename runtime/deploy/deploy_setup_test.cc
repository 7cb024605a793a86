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

// Batch nodes run the master's own worker and gsrt-agent (job mode:
// `gsrt-agent --batch-job`; pilots: `gsrt-agent --connect`), at the
// master's paths: setup checks those, it does not copy them anywhere.
TEST_F(DeploySetupTest, BatchHostsRunTheMastersWorkerAndAgent) {
  SetupRequest request = MakeSetupRequest("app", "/p");
  request.agent = "/opt/gsrt/bin/gsrt-agent";
  for (AdapterKind kind : {AdapterKind::kSlurm, AdapterKind::kPbs}) {
    for (BatchMode mode : {BatchMode::kJob, BatchMode::kPilot}) {
      for (bool shared : {true, false}) {
        HostConfig h = Host("c", kind, "/scratch/c");
        h.batch.mode = mode;
        h.shared_fs = shared;
        EXPECT_TRUE(RunsMasterPrograms(h));
        auto programs = SetupPrograms(h, request);
        ASSERT_EQ(programs.size(), 2u);
        EXPECT_EQ(programs[0].role, "worker");
        EXPECT_EQ(programs[0].host_path, "/p/app-worker");
        EXPECT_EQ(programs[1].role, "agent");
        EXPECT_EQ(programs[1].host_path, "/opt/gsrt/bin/gsrt-agent");
      }
    }
  }
}

// Issue 36: a Slurm host used to be UNREACHABLE ("setup of slurm hosts is
// not available") while probe reached it.
TEST_F(DeploySetupTest, SlurmHostIsCheckedInPlaceNotUnreachable) {
  WriteWorker(master_ + "-worker", "echo 'gsrt-worker app 0.1.0'\n");
  const std::string agent = dir_.File("build/gsrt-agent-under-test");
  WriteWorker(agent, "echo 'gsrt-agent 0.1.0'\n");
  HostConfig h = Host("cluster", AdapterKind::kSlurm, dir_.File("work"));
  h.batch.mode = BatchMode::kPilot;
  SetupRequest request = MakeSetupRequest("build/app", dir_.File(""));
  request.agent = agent;
  request.agent_problem.clear();
  auto results = SetupHosts({&h}, request, DefaultInstallerMaker(10));
  const std::string text = FormatSetupResults(results);
  ASSERT_TRUE(results[0].ready()) << text;
  EXPECT_EQ(text.find("UNREACHABLE"), std::string::npos) << text;
  ASSERT_EQ(results[0].programs.size(), 2u);
  EXPECT_EQ(results[0].programs[0].check.version, "gsrt-worker app 0.1.0");
  EXPECT_EQ(results[0].programs[1].check.version, "gsrt-agent 0.1.0");
  EXPECT_FALSE(results[0].programs[0].check.uploaded);
  EXPECT_FALSE(std::filesystem::exists(dir_.File("work/bin")));
  EXPECT_NE(text.find("1 of 1 hosts ready"), std::string::npos) << text;

  // A worker that does not start there is MISSING, with its reason.
  WriteWorker(master_ + "-worker", "echo 'libfoo.so: not found' >&2\nexit 1\n");
  auto broken = SetupHosts({&h}, request, DefaultInstallerMaker(10));
  ASSERT_FALSE(broken[0].ready());
  EXPECT_TRUE(broken[0].error.empty()) << broken[0].error;
  EXPECT_TRUE(broken[0].unsupported.empty()) << broken[0].unsupported;
  EXPECT_NE(broken[0].programs[0].problem.find("libfoo.so"), std::string::npos);
  EXPECT_NE(FormatSetupResults(broken).find("MISSING"), std::string::npos);
}

TEST_F(DeploySetupTest, BatchHostWithoutAnAgentReportsItMissing) {
  WriteWorker(master_ + "-worker", "echo v\n");
  HostConfig h = Host("cluster", AdapterKind::kPbs, dir_.File("work"));
  h.shared_fs = true;
  SetupRequest request = MakeSetupRequest("build/app", dir_.File(""));
  request.agent.clear();
  request.agent_problem = "gsrt-agent not found; set GSRT_AGENT";
  auto results = SetupHosts({&h}, request, DefaultInstallerMaker(10));
  ASSERT_EQ(results[0].programs.size(), 2u);
  EXPECT_TRUE(results[0].programs[0].ok);
  EXPECT_FALSE(results[0].programs[1].ok);
  EXPECT_EQ(results[0].programs[1].problem, request.agent_problem);
}

// What setup cannot serve is said as such, naming the host and what to
// do; never UNREACHABLE.
TEST_F(DeploySetupTest, JobModeWithoutSharedFilesIsNotSupported) {
  WriteWorker(master_ + "-worker", "echo v\n");
  HostConfig h = Host("cluster", AdapterKind::kSlurm, dir_.File("work"));
  auto results = Setup({h}, DefaultInstallerMaker(10));
  ASSERT_FALSE(results[0].ready());
  EXPECT_TRUE(results[0].error.empty()) << results[0].error;
  const std::string& why = results[0].unsupported;
  EXPECT_NE(why.find("not supported for slurm hosts"), std::string::npos)
      << why;
  EXPECT_NE(why.find("host 'cluster'"), std::string::npos) << why;
  EXPECT_NE(why.find("shared_fs: true"), std::string::npos) << why;
  const std::string text = FormatSetupResults(results);
  EXPECT_NE(text.find("NOT SUPPORTED"), std::string::npos) << text;
  EXPECT_NE(text.find("Not supported:"), std::string::npos) << text;
  EXPECT_EQ(text.find("UNREACHABLE"), std::string::npos) << text;
}

TEST_F(DeploySetupTest, SimHostsAndLoginlessViaAreNotSupported) {
  auto sim = Setup({Host("s", AdapterKind::kSim)}, DefaultInstallerMaker(10));
  EXPECT_NE(sim[0].unsupported.find("not supported for sim hosts"),
            std::string::npos)
      << sim[0].unsupported;
  EXPECT_NE(sim[0].unsupported.find("--host"), std::string::npos);
  // `via` without the config that names the login node.
  HostConfig h = Host("cluster", AdapterKind::kSlurm, "/shared/work");
  h.shared_fs = true;
  h.batch.via = "login";
  auto via = Setup({h}, DefaultInstallerMaker(10));
  EXPECT_NE(via[0].unsupported.find("`via: login` names no ssh host"),
            std::string::npos)
      << via[0].unsupported;
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

// With `via`, a batch host's programs are checked on the login node (it
// sees the cluster's file system), at the master's paths: the worker here
// says whether it ran over ssh.
TEST_F(DeploySetupSshTest, BatchHostViaIsCheckedOnTheLoginNode) {
  WriteWorker(master_ + "-worker",
              "echo \"gsrt-worker app ${SSH_CONNECTION:+over ssh}\"\n");
  const std::string agent = dir_.File("build/gsrt-agent-under-test");
  WriteWorker(agent, "echo 'gsrt-agent 0.1.0'\n");
  auto config = std::make_shared<Config>();
  HostConfig login = SshHost(gs::testing::SshdTestbed::Address(1));
  login.name = "login";
  HostConfig cluster = Host("cluster", AdapterKind::kSlurm, dir_.File("w"));
  cluster.batch.mode = BatchMode::kPilot;
  cluster.batch.via = "login";
  config->hosts = {login, cluster};
  SetupRequest request = MakeSetupRequest("build/app", dir_.File(""));
  request.agent = agent;
  request.agent_problem.clear();
  const HostConfig* host = &config->hosts[1];

  auto results = SetupHosts({host}, request, DefaultInstallerMaker(20, config));
  ASSERT_TRUE(results[0].ready()) << FormatSetupResults(results);
  ASSERT_EQ(results[0].programs.size(), 2u);
  EXPECT_EQ(results[0].programs[0].program.host_path, master_ + "-worker");
  EXPECT_EQ(results[0].programs[0].check.version, "gsrt-worker app over ssh");
  EXPECT_EQ(results[0].programs[1].program.host_path, agent);
  EXPECT_FALSE(results[0].programs[0].check.uploaded);

  // A login node that does not answer: the host is unreachable through it.
  config->hosts[0].address = "127.0.0.9";
  auto down = SetupHosts({host}, request, DefaultInstallerMaker(20, config));
  EXPECT_NE(down[0].error.find("through `via: login`"), std::string::npos)
      << down[0].error;
  EXPECT_NE(FormatSetupResults(down).find("UNREACHABLE"), std::string::npos);

  // A relative workdir behind `via` is what the run refuses at connect.
  config->hosts[1].workdir = "w";
  auto relative =
      SetupHosts({host}, request, DefaultInstallerMaker(20, config));
  EXPECT_NE(relative[0].unsupported.find("absolute"), std::string::npos)
      << relative[0].unsupported;
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
