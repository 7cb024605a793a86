// The `ssh` adapter: one libssh session to the host, the agent and the
// worker installed there when the host does not share the master's files
// (copied only when missing or different, checked with --version so a
// wrong architecture or a missing library fails at start, not at the
// first job), and then every job, transfer and heartbeat through one
// long-lived gsrt-agent on an exec channel (AgentAdapter).
#ifndef GSRT_ADAPTERS_SSH_SSH_HOST_ADAPTER_H_
#define GSRT_ADAPTERS_SSH_SSH_HOST_ADAPTER_H_

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "adapters/adapter_defaults.h"
#include "runtime/base/clock.h"
#include "runtime/jobs/host_config.h"
#include "runtime/jobs/worker_mode.h"

namespace boost::asio {
class io_context;
}  // namespace boost::asio

namespace gs {

class AgentAdapter;
class SshSession;

struct SshHostOptions {
  HostConfig host;
  // The master-side paths of the programs to run there.
  std::string agent_program;
  std::string worker;  // "" when only probing (gsdeploy)
  Seconds heartbeat = 5;
  // How the agent runs jobs there.
  WorkerMode workers = WorkerMode::kProcess;
  // The master's failed/ dir, where failed jobs' logs are fetched
  // (AgentAdapterOptions::fetch_logs_to); "" fetches nothing.
  std::string fetch_logs_to;
};

class SshHostAdapter : public AdapterDefaults {
 public:
  SshHostAdapter(boost::asio::io_context& io, Clock& clock,
                 SshHostOptions options);
  ~SshHostAdapter() override;

  std::string_view kind() const override { return "ssh"; }
  // The blocking part of a start, safe beside other hosts' (the session
  // does not serve the io_context meanwhile): logs in (bounded by the
  // connect timeout), checks the programs with one command and installs
  // what it did not confirm. Errors name the host.
  Status Prepare() override;
  // Connects (bounded by the connect timeout) unless Prepare did, installs
  // what is missing, starts the agent and waits for its HELLO. Errors name
  // the host.
  Status Connect() override;
  // As Connect(), but the agent's handshake runs on the io_context (the
  // engine thread calls this); the ssh connection itself is bounded by a
  // short timeout so a host still down does not hold the engine long.
  void Reconnect(std::function<void(Status)> done) override;
  int FreeSlots() const override;
  bool connected() const override;
  Seconds last_heard() const override;
  Seconds heartbeat_interval() const override;
  void Submit(JobSpec spec, DoneCallback done) override;
  void Cancel(JobId id) override;
  void Shutdown() override;
  bool shares_master_files() const override { return options_.host.shared_fs; }
  std::string work_dir() const override;
  uint64_t memory_capacity() const override;
  // The devices the agent found (--detect-gpus); 0 when the host declares
  // its own or is not connected.
  int gpu_capacity() const override;
  void Put(std::string master_path, std::string host_path,
           StatusCallback done) override;
  void Get(std::string host_path, std::string master_path,
           StatusCallback done) override;
  void Remove(std::string host_path) override;
  // Forwarded to the agent when this host keeps its own files (one agent
  // per host work dir).
  void Sweep(std::string owner, std::vector<std::string> keep) override;
  void Probe(ProbeCallback done) override;

 private:
  struct StartPlan;
  // A session unless one is connected (it says kConnecting).
  Status ConnectSession(Seconds connect_timeout);
  // Session (new if lost), then the agent adapter, whose first start runs
  // the install check on the agent's channel (hosts that do not share the
  // master's files).
  Status PrepareAgent(Seconds connect_timeout);
  // After a start that did not connect: nullopt if it did not run the
  // install check or installing cannot help; else installs what the check
  // did not confirm (the next start runs the agent alone) and says how
  // that went.
  std::optional<Status> InstallUnconfirmed();
  // Installs the programs not `confirmed`, saying what is wrong.
  Status Install(const std::vector<bool>& confirmed);

  boost::asio::io_context& io_;
  Clock& clock_;
  SshHostOptions options_;
  std::shared_ptr<SshSession> session_;
  std::unique_ptr<AgentAdapter> agent_;
  std::string remote_agent_;   // path of gsrt-agent on the host
  std::string remote_worker_;  // path of the worker on the host
  // What is installed when the host does not share the master's files:
  // (master path, host path), the agent first.
  std::vector<std::pair<std::string, std::string>> programs_;
  std::shared_ptr<StartPlan> plan_;
  // Prepare confirmed the programs: the next start runs the agent alone.
  bool installed_ = false;
  // False once destroyed: the agent's callbacks may outlive this.
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

// gsrt-agent on the master's machine: $GSRT_AGENT, else the one installed
// beside libgsrt (wherever the installed tree was moved), else the one at
// the install prefix, else the one in the build tree.
StatusOr<std::string> FindAgentProgram();

}  // namespace gs

#endif  // GSRT_ADAPTERS_SSH_SSH_HOST_ADAPTER_H_
