#include "adapters/ssh/ssh_installer.h"

#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <cerrno>

#include "adapters/ssh/ssh_remote.h"
#include "adapters/ssh/ssh_session.h"
#include "adapters/ssh/ssh_target.h"
#include "runtime/base/asio_clock.h"

namespace gs {

namespace {

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

StatusOr<std::unique_ptr<HostInstaller>> ConnectSshInstaller(
    const HostConfig& host, Seconds timeout) {
  auto installer = std::make_unique<SshInstaller>(timeout);
  if (Status s = installer->Connect(host); !s.ok()) return s;
  return std::unique_ptr<HostInstaller>(std::move(installer));
}

}  // namespace gs
