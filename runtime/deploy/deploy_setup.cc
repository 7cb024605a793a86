#include "runtime/deploy/deploy_setup.h"

#include <sys/stat.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <cerrno>
#include <filesystem>
#include <fstream>

#include "adapters/ssh/ssh_host_adapter.h"
#include "adapters/ssh/ssh_remote.h"
#include "adapters/ssh/ssh_session.h"
#include "adapters/ssh/ssh_target.h"
#include "runtime/base/asio_clock.h"
#include "runtime/base/file_io.h"
#include "runtime/base/process_spawn.h"
#include "runtime/deploy/deploy_context.h"

namespace gs {

namespace fs = std::filesystem;

namespace {

// True when both files exist with the same bytes.
bool SameContents(const std::string& a, const std::string& b) {
  std::error_code ec;
  if (fs::file_size(a, ec) != fs::file_size(b, ec) || ec) return false;
  std::ifstream x(a, std::ios::binary), y(b, std::ios::binary);
  char bx[1 << 16], by[1 << 16];
  while (x && y) {
    x.read(bx, sizeof bx);
    y.read(by, sizeof by);
    if (x.gcount() != y.gcount() || !std::equal(bx, bx + x.gcount(), by)) {
      return false;
    }
  }
  return x.eof() && y.eof();
}

class LocalInstaller : public HostInstaller {
 public:
  explicit LocalInstaller(Seconds timeout) : timeout_(timeout) {}

  StatusOr<ProgramCheck> Install(const std::string& local,
                                 const std::string& host_path) override {
    if (::access(local.c_str(), R_OK) != 0) {
      return Status::FromErrno("cannot read " + local + " on the master",
                               errno);
    }
    bool uploaded = false;
    if (!SameContents(local, host_path)) {
      std::error_code ec;
      fs::create_directories(fs::path(host_path).parent_path(), ec);
      Status copied = CopyFileAtomically(local, host_path, {.mode = 0755});
      if (!copied.ok()) {
        return copied.WithContext("cannot copy " + local + " to " + host_path);
      }
      uploaded = true;
    }
    StatusOr<ProgramCheck> check = Check(host_path);
    if (!check.ok()) return check;
    check->uploaded = uploaded;
    return check;
  }

  StatusOr<ProgramCheck> Check(const std::string& host_path) override {
    struct stat st;
    if (::stat(host_path.c_str(), &st) != 0) {
      return Status::NotFound(host_path + " does not exist");
    }
    if (!S_ISREG(st.st_mode) || ::access(host_path.c_str(), X_OK) != 0) {
      return Status::PermissionDenied(host_path +
                                      " is not an executable file (chmod +x)");
    }
    const std::vector<std::string> argv = {host_path, "--version"};
    StatusOr<ProgramOutput> run = RunProgram(argv, timeout_);
    if (!run.ok()) return run.status();
    if (run->exit_code != 0) {
      return Status::FailedPrecondition(DescribeFailure(argv, *run));
    }
    ProgramCheck check;
    check.version = run->out.substr(0, run->out.find('\n'));
    return check;
  }

 private:
  Seconds timeout_;
};

// An ssh host: one session for all its programs. The synchronous helpers
// of ssh_remote.h drive the session themselves, so the io_context never
// runs; it only has to outlive the session (declared before it).
class SshInstaller : public HostInstaller {
 public:
  explicit SshInstaller(Seconds timeout) : timeout_(timeout) {}

  Status Connect(const HostConfig& host) {
    auto session =
        SshSession::Connect(io_, clock_, SshTarget::FromHostConfig(host));
    if (!session.ok()) return session.status();
    session_ = std::move(session).value();
    return Status::Ok();
  }

  StatusOr<ProgramCheck> Install(const std::string& local,
                                 const std::string& host_path) override {
    // InstallIfDifferent streams the file and only then fails on a
    // missing one, with a less direct message.
    if (::access(local.c_str(), R_OK) != 0) {
      return Status::FromErrno("cannot read " + local + " on the master",
                               errno);
    }
    auto installed =
        InstallIfDifferent(*session_, local, RemotePath(host_path), timeout_);
    if (!installed.ok()) return installed.status();
    ProgramCheck check;
    check.uploaded = installed->uploaded;
    check.version = installed->version;
    return check;
  }

  StatusOr<ProgramCheck> Check(const std::string& host_path) override {
    RunOptions options;
    options.timeout = timeout_;
    const std::string path = RemotePath(host_path);
    auto run = RunCommand(*session_, {path, "--version"}, options);
    if (!run.ok()) return run.status();
    if (run->exit_code != 0) {
      std::string err = run->err.empty() ? run->out : run->err;
      while (!err.empty() && (err.back() == '\n' || err.back() == ' ')) {
        err.pop_back();
      }
      return Status::FailedPrecondition(
          "'" + path + " --version' on " + session_->describe() +
          (run->exit_code < 0
               ? " was killed (" + run->signal + ")"
               : " exited with status " + std::to_string(run->exit_code)) +
          (err.empty() ? "" : ": " + err));
    }
    ProgramCheck check;
    check.version = run->out.substr(0, run->out.find('\n'));
    return check;
  }

 private:
  Seconds timeout_;
  boost::asio::io_context io_;
  AsioClock clock_{io_};
  std::shared_ptr<SshSession> session_;
};

}  // namespace

std::unique_ptr<HostInstaller> MakeLocalInstaller(Seconds timeout) {
  return std::make_unique<LocalInstaller>(timeout);
}

InstallerMaker DefaultInstallerMaker(Seconds timeout) {
  return [timeout](const HostConfig& host)
             -> StatusOr<std::unique_ptr<HostInstaller>> {
    if (!host.adapters.empty() &&
        host.adapters.front() == AdapterKind::kLocal) {
      return MakeLocalInstaller(timeout);
    }
    if (!host.adapters.empty() && host.adapters.front() == AdapterKind::kSsh) {
      auto installer = std::make_unique<SshInstaller>(timeout);
      Status s = installer->Connect(host);
      if (!s.ok()) return s;
      return std::unique_ptr<HostInstaller>(std::move(installer));
    }
    // Seam: the batch installers (through their `via` login host) are
    // added here.
    const std::string kind =
        host.adapters.empty()
            ? "?"
            : std::string(AdapterKindName(host.adapters.front()));
    return Status::Unavailable("setup of " + kind +
                               " hosts is not available in this build of "
                               "gsdeploy yet (only local and ssh hosts)");
  };
}

SetupRequest MakeSetupRequest(const std::string& app, const std::string& cwd) {
  SetupRequest request;
  request.app = app;
  fs::path path = fs::path(app + "-worker");
  if (path.is_relative()) path = fs::path(cwd) / path;
  request.worker = path.lexically_normal().string();
  // The ssh adapter starts this agent on hosts that do not share files.
  StatusOr<std::string> agent = FindAgentProgram();
  if (agent.ok()) {
    request.agent = *agent;
  } else {
    request.agent_problem = agent.status().message();
  }
  return request;
}

std::vector<SetupProgram> SetupPrograms(const HostConfig& host,
                                        const SetupRequest& request) {
  const bool shared = SharesMasterFiles(host);
  auto place = [&](const std::string& local) {
    if (shared) return local;
    std::string dir = host.workdir.empty() ? "." : host.workdir;
    return dir + "/bin/" + fs::path(local).filename().string();
  };
  std::vector<SetupProgram> programs;
  programs.push_back({"worker", request.worker, place(request.worker)});
  // The agent goes only where a connection starts one: not on hosts that
  // run jobs as local processes.
  if (!shared && (!request.agent.empty() || !request.agent_problem.empty())) {
    // Named as the ssh adapter runs it, whatever the master's file is.
    std::string dir = host.workdir.empty() ? "." : host.workdir;
    programs.push_back({"agent", request.agent, dir + "/bin/gsrt-agent"});
  }
  return programs;
}

bool SetupHostResult::ready() const {
  if (!error.empty()) return false;
  for (const Program& p : programs) {
    if (!p.ok) return false;
  }
  return true;
}

std::vector<SetupHostResult> SetupHosts(
    const std::vector<const HostConfig*>& hosts, const SetupRequest& request,
    const InstallerMaker& make) {
  std::vector<SetupHostResult> results;
  for (const HostConfig* host : hosts) {
    SetupHostResult r;
    r.host = host->name;
    r.shares_files = SharesMasterFiles(*host);
    StatusOr<std::unique_ptr<HostInstaller>> installer = make(*host);
    if (!installer.ok()) {
      r.error = installer.status().message();
      results.push_back(std::move(r));
      continue;
    }
    for (const SetupProgram& program : SetupPrograms(*host, request)) {
      SetupHostResult::Program p;
      p.program = program;
      if (program.local_path.empty()) {
        p.problem = request.agent_problem;
        r.programs.push_back(std::move(p));
        continue;
      }
      StatusOr<ProgramCheck> check =
          r.shares_files
              ? (*installer)->Check(program.host_path)
              : (*installer)->Install(program.local_path, program.host_path);
      if (check.ok()) {
        p.ok = true;
        p.check = std::move(check).value();
      } else {
        p.problem = check.status().message();
      }
      r.programs.push_back(std::move(p));
    }
    results.push_back(std::move(r));
  }
  return results;
}

}  // namespace gs
