#include "adapters/ssh/ssh_host_adapter.h"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <future>
#include <optional>
#include <string_view>

#include "adapters/agent/agent_adapter.h"
#include "adapters/agent/agent_args.h"
#include "adapters/host_environment.h"
#include "adapters/ssh/checked_start_stream.h"
#include "adapters/ssh/install_check.h"
#include "adapters/ssh/program_digest.h"
#include "adapters/ssh/ssh_channel_stream.h"
#include "adapters/ssh/ssh_remote.h"
#include "adapters/ssh/ssh_session.h"
#include "adapters/ssh/ssh_target.h"
#include "runtime/base/shell_quote.h"

namespace gs {

namespace fs = std::filesystem;

namespace {

// gsrt-agent where an installed tree that was moved keeps it: beside the
// library this code is in (libgsrt), at the install's relative path from
// its lib/ to its bin/ (a bundle unpacked anywhere, docs/install.md).
std::string AgentBesideThisLibrary() {
  Dl_info info;
  if (::dladdr(reinterpret_cast<void*>(&FindAgentProgram), &info) == 0 ||
      info.dli_fname == nullptr) {
    return "";
  }
  fs::path library = fs::path(info.dli_fname);
  if (library.filename().string().rfind("libgsrt.so", 0) != 0) return "";
  return (library.parent_path() / GSRT_AGENT_FROM_LIBDIR).lexically_normal();
}

}  // namespace

StatusOr<std::string> FindAgentProgram() {
  if (const char* env = std::getenv("GSRT_AGENT"); env && *env) {
    if (::access(env, X_OK) == 0) return std::string(env);
    return Status::NotFound(std::string("GSRT_AGENT names ") + env +
                            ", which is not an executable file");
  }
  std::string beside = AgentBesideThisLibrary();
  if (!beside.empty() && ::access(beside.c_str(), X_OK) == 0) return beside;
  for (const char* path : {GSRT_AGENT_INSTALLED, GSRT_AGENT_BUILT}) {
    if (::access(path, X_OK) == 0) return std::string(path);
  }
  return Status::NotFound(
      "gsrt-agent not found (looked beside libgsrt, in " GSRT_AGENT_INSTALLED
      " and " GSRT_AGENT_BUILT "); install gsrt or set GSRT_AGENT to its path");
}

// How the agent adapter's next stream starts the agent.
struct SshHostAdapter::StartPlan {
  // Run the install check first, on the agent's channel.
  bool check_first = false;
  std::vector<InstalledProgram> programs;  // what it checks, the agent first
  // What the last checked start showed.
  std::shared_ptr<CheckedStartOutcome> outcome;
};

namespace {

// The programs' host paths and the SHA-256 of the master's copies.
StatusOr<std::vector<InstalledProgram>> HashPrograms(
    const std::vector<std::pair<std::string, std::string>>& programs) {
  std::vector<InstalledProgram> hashed;
  for (const auto& [local, remote] : programs) {
    auto digest = ProgramSha256(local);
    if (!digest.ok()) return digest.status();
    hashed.push_back({remote, *digest});
  }
  return hashed;
}

// The install check's verdict in a command's output: its line may follow
// what a login shell printed first.
std::optional<std::vector<bool>> CheckLineOf(const std::string& out,
                                             size_t programs) {
  size_t at = out.rfind(kInstallCheckTag);
  if (at == std::string::npos) return std::nullopt;
  std::string_view line(out);
  line = line.substr(at);
  line = line.substr(0, line.find('\n'));
  return ParseInstallCheckLine(line, programs);
}

}  // namespace

SshHostAdapter::SshHostAdapter(boost::asio::io_context& io, Clock& clock,
                               SshHostOptions options)
    : io_(io), clock_(clock), options_(std::move(options)) {
  std::string dir = options_.host.workdir;
  if (options_.host.shared_fs) {
    remote_agent_ = options_.agent_program;
    remote_worker_ = options_.worker;
    return;
  }
  remote_agent_ = RemotePath(dir + "/bin/gsrt-agent");
  programs_.emplace_back(options_.agent_program, remote_agent_);
  if (!options_.worker.empty()) {
    remote_worker_ = RemotePath(dir + "/bin/" +
                                fs::path(options_.worker).filename().string());
    programs_.emplace_back(options_.worker, remote_worker_);
  }
}

SshHostAdapter::~SshHostAdapter() { *alive_ = false; }

Status SshHostAdapter::Install(const std::vector<bool>& confirmed) {
  const std::string where = "host '" + options_.host.name + "'";
  const std::string bin = RemotePath(options_.host.workdir + "/bin");
  Status s = EnsureRemoteDir(*session_, bin);
  if (!s.ok()) {
    return s.WithContext(where + ": gsrt installs its programs in " + bin +
                         ", which must be a directory the ssh user can "
                         "write (or set another `workdir:` for the host in "
                         "gsrt.yaml)");
  }
  for (size_t i = 0; i < programs_.size(); ++i) {
    if (confirmed[i]) continue;
    auto installed =
        InstallIfDifferent(*session_, programs_[i].first, programs_[i].second);
    if (!installed.ok()) {
      return installed.status().WithContext(
          where + (i == 0 ? ": gsrt-agent" : ": worker"));
    }
  }
  return Status::Ok();
}

std::optional<Status> SshHostAdapter::InstallUnconfirmed() {
  if (!plan_ || !plan_->check_first || !plan_->outcome) return std::nullopt;
  plan_->check_first = false;
  std::optional<std::vector<bool>> confirmed =
      ConfirmedAfterFailedStart(*plan_->outcome, programs_.size());
  if (!confirmed) return std::nullopt;
  StartPhaseIs(StartPhase::kInstalling);
  return Install(*confirmed);
}

Status SshHostAdapter::PrepareAgent(Seconds connect_timeout) {
  if (agent_) agent_->Shutdown();
  agent_.reset();
  // Hashed while the connect waits for the host (once per process).
  std::future<StatusOr<std::vector<InstalledProgram>>> hashed;
  if (!programs_.empty() && !installed_) {
    hashed = std::async(std::launch::async, HashPrograms, programs_);
  }
  if (Status s = ConnectSession(connect_timeout); !s.ok()) return s;
  plan_ = std::make_shared<StartPlan>();
  if (installed_) {
    installed_ = false;  // a later start checks again
  } else if (hashed.valid()) {
    auto programs = hashed.get();
    if (programs.ok()) {
      plan_->check_first = true;
      plan_->programs = std::move(programs).value();
    } else if (Status s = Install(std::vector<bool>(programs_.size(), false));
               !s.ok()) {
      return s;  // says what is wrong with the master's copy
    }
  }
  std::vector<std::string> argv = {
      remote_agent_,
      "--workdir",
      RemotePath(options_.host.workdir),
      "--slots",
      std::to_string(options_.host.slots),
      "--heartbeat",
      std::to_string(options_.heartbeat),
      "--workers",
      std::string(WorkerModeName(options_.workers))};
  for (std::string& word : LauncherArgs(options_.host.launcher)) {
    argv.push_back(std::move(word));
  }
  // Devices the host does not declare are the ones its agent finds.
  if (!options_.host.gpus) argv.push_back("--detect-gpus");
  // Messages show the agent's command, not the setup script around it.
  auto shown = ShellCommandLine(argv);
  if (!shown.ok()) return shown.status();
  argv = InHostEnvironment(options_.host.name, options_.host.Environment(),
                           std::move(argv));
  std::shared_ptr<SshSession> session = session_;
  std::shared_ptr<StartPlan> plan = plan_;
  const std::string bin = RemotePath(options_.host.workdir + "/bin");
  ByteStreamFactory factory =
      [session, argv, plan, bin,
       shown = *shown]() -> StatusOr<std::unique_ptr<ByteStream>> {
    if (!plan->check_first) {
      auto stream = SshChannelStream::Open(session, argv, shown);
      if (!stream.ok()) return stream.status();
      return std::unique_ptr<ByteStream>(std::move(stream).value());
    }
    auto stream = SshChannelStream::Open(
        session, InstallCheckArgv(bin, plan->programs, argv), shown);
    if (!stream.ok()) return stream.status();
    plan->outcome = std::make_shared<CheckedStartOutcome>();
    return std::unique_ptr<ByteStream>(std::make_unique<CheckedStartStream>(
        std::move(stream).value(), plan->programs.size(), plan->outcome,
        session->describe()));
  };
  AgentAdapterOptions agent_options;
  agent_options.kind = "ssh";
  agent_options.host_name = options_.host.name;
  agent_options.heartbeat_interval = options_.heartbeat;
  agent_options.shares_master_files = options_.host.shared_fs;
  agent_options.fetch_logs_to = options_.fetch_logs_to;
  agent_ = std::make_unique<AgentAdapter>(io_, clock_, std::move(factory),
                                          agent_options);
  return Status::Ok();
}

Status SshHostAdapter::ConnectSession(Seconds connect_timeout) {
  if (session_ && !session_->lost()) return Status::Ok();
  session_.reset();
  StartPhaseIs(StartPhase::kConnecting);
  SshTarget target = SshTarget::FromHostConfig(options_.host);
  if (connect_timeout > 0) target.connect_timeout = connect_timeout;
  auto session = SshSession::Connect(io_, clock_, target);
  if (!session.ok()) return session.status();
  session_ = std::move(session).value();
  return Status::Ok();
}

Status SshHostAdapter::Prepare() {
  installed_ = false;
  std::future<StatusOr<std::vector<InstalledProgram>>> hashed;
  if (!programs_.empty()) {
    hashed = std::async(std::launch::async, HashPrograms, programs_);
  }
  if (Status s = ConnectSession(0); !s.ok()) return s;
  // Other hosts prepare on other threads: this one must not run their
  // handlers (docs/ssh.md, "Threading and blocking").
  session_->set_serve_io(false);
  struct ServeAgain {
    SshSession& session;
    ~ServeAgain() { session.set_serve_io(true); }
  } serve_again{*session_};
  if (!hashed.valid()) return Status::Ok();  // the master's files are shared
  auto programs = hashed.get();
  std::vector<bool> confirmed(programs_.size(), false);
  if (programs.ok()) {
    StartPhaseIs(StartPhase::kChecking);
    const std::string bin = RemotePath(options_.host.workdir + "/bin");
    auto checked = RunCommand(*session_, InstallCheckArgv(bin, *programs));
    if (!checked.ok()) return checked.status();
    if (auto line = CheckLineOf(checked->out, programs_.size())) {
      confirmed = *line;
    }
  }
  if (std::find(confirmed.begin(), confirmed.end(), false) != confirmed.end()) {
    StartPhaseIs(StartPhase::kInstalling);
    // Says what is wrong with the master's copy when it could not be hashed.
    if (Status s = Install(confirmed); !s.ok()) return s;
  }
  installed_ = true;
  return Status::Ok();
}

Status SshHostAdapter::Connect() {
  Status s = PrepareAgent(0);
  if (s.ok()) {
    StartPhaseIs(StartPhase::kStarting);
    s = agent_->Connect();
  }
  if (s.ok()) return s;
  // Every message already names the host.
  std::optional<Status> installed = InstallUnconfirmed();
  if (!installed) return s;
  if (!installed->ok()) return *installed;
  return agent_->Connect();
}

void SshHostAdapter::Reconnect(std::function<void(Status)> done) {
  Status s = PrepareAgent(/*connect_timeout=*/3);
  if (!s.ok()) return done(s);
  agent_->ConnectAsync(
      [this, alive = alive_, done = std::move(done)](Status s) mutable {
        if (s.ok() || !*alive) return done(s);
        // Blocks the io_context while it installs, as a reconnect's setup
        // always did (docs/ssh.md).
        std::optional<Status> installed = InstallUnconfirmed();
        if (!installed) return done(s);
        if (!installed->ok()) return done(*installed);
        agent_->ConnectAsync(std::move(done));
      });
}

int SshHostAdapter::FreeSlots() const {
  return agent_ ? agent_->FreeSlots() : 0;
}

bool SshHostAdapter::connected() const { return agent_ && agent_->connected(); }

Seconds SshHostAdapter::last_heard() const {
  return agent_ ? agent_->last_heard() : -1;
}

Seconds SshHostAdapter::heartbeat_interval() const {
  return agent_ ? agent_->heartbeat_interval() : 0;
}

void SshHostAdapter::Submit(JobSpec spec, DoneCallback done) {
  // The engine names the master's worker; on a host that does not share
  // the master's files it runs the installed copy.
  if (!options_.host.shared_fs && spec.worker == options_.worker) {
    spec.worker = remote_worker_;
  }
  if (!agent_) {
    JobReport report;
    report.id = spec.id;
    report.outcome =
        HostFailed{"host '" + options_.host.name + "' is not connected"};
    report.submitted = report.started = report.ended = clock_.Now();
    done(std::move(report));
    return;
  }
  agent_->Submit(std::move(spec), std::move(done));
}

void SshHostAdapter::Cancel(JobId id) {
  if (agent_) agent_->Cancel(id);
}

void SshHostAdapter::Shutdown() {
  if (agent_) agent_->Shutdown();
}

std::string SshHostAdapter::work_dir() const {
  return agent_ ? agent_->work_dir() : "";
}

uint64_t SshHostAdapter::memory_capacity() const {
  return agent_ ? agent_->memory_capacity() : 0;
}

int SshHostAdapter::gpu_capacity() const {
  return agent_ ? agent_->gpu_capacity() : 0;
}

void SshHostAdapter::Put(std::string master_path, std::string host_path,
                         StatusCallback done) {
  if (!agent_) return done(Status::Unavailable("host not connected"));
  agent_->Put(std::move(master_path), std::move(host_path), std::move(done));
}

void SshHostAdapter::Get(std::string host_path, std::string master_path,
                         StatusCallback done) {
  if (!agent_) return done(Status::Unavailable("host not connected"));
  agent_->Get(std::move(host_path), std::move(master_path), std::move(done));
}

void SshHostAdapter::Remove(std::string host_path) {
  if (agent_) agent_->Remove(std::move(host_path));
}

void SshHostAdapter::Sweep(std::string owner, std::vector<std::string> keep) {
  if (agent_ && !options_.host.shared_fs)
    agent_->Sweep(std::move(owner), std::move(keep));
}

void SshHostAdapter::Probe(ProbeCallback done) {
  if (!agent_) return done(Status::Unavailable("host not connected"));
  agent_->Probe(std::move(done));
}

}  // namespace gs
