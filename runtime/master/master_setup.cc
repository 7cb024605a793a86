#include "runtime/master/master_setup.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "runtime/base/asio_clock.h"
#include "runtime/base/gpu_devices.h"
#include "runtime/config/config.h"
#include "runtime/config/config_operations.h"
#include "runtime/config/reuse_mode.h"
#include "runtime/dashboard/dashboard_server.h"
#include "runtime/hosts/registry.h"
#include "runtime/master/operation_registry.h"
#include "runtime/master/worker_identity.h"
#include "runtime/observe/summary_observer.h"
#include "runtime/observe/trace_observer.h"

namespace gs {

namespace fs = std::filesystem;

StatusOr<std::string> FindWorker() {
  if (const char* env = std::getenv("GSRT_WORKER"); env && *env) {
    std::string path = fs::absolute(env).string();
    if (::access(path.c_str(), X_OK) != 0) {
      return Status::NotFound("GSRT_WORKER names " + path +
                              ", which is not an executable file");
    }
    return path;
  }
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) {
    return Status::NotFound(
        "cannot find the running executable to locate its worker; set "
        "GSRT_WORKER to the worker's path");
  }
  std::string path = self.string() + "-worker";
  if (::access(path.c_str(), X_OK) != 0) {
    return Status::NotFound(
        "worker program not found: " + path + ". Build the '" +
        self.filename().string() +
        "-worker' target (gsrt_add_application makes it next to the "
        "master), or set GSRT_WORKER to its path");
  }
  return path;
}

namespace {

// The host setups the configuration asks for, or why none can be used.
StatusOr<std::vector<HostSetup>> MakeHosts(
    const std::shared_ptr<const Config>& config, const std::string& worker,
    MessageSink& messages) {
  std::vector<HostSetup> hosts;
  std::string refused;
  for (size_t i = 0; i < config->hosts.size(); ++i) {
    const HostConfig& host = config->hosts[i];
    bool available = false;
    for (AdapterKind kind : host.adapters) available |= AdapterAvailable(kind);
    if (!available) {
      auto why = MakeAdapter(
          host, AdapterContext{nullptr, nullptr, config.get(), worker});
      refused += "\n  " +
                 config->source.Where("hosts[" + std::to_string(i) + "]") +
                 why.status().message();
      continue;
    }
    // One maker per available kind of the host's list, in order: the
    // engine falls back to the next when one does not connect.
    std::vector<std::function<std::unique_ptr<Adapter>(boost::asio::io_context&,
                                                       Clock&)>>
        makers;
    for (AdapterKind kind : host.adapters) {
      if (!AdapterAvailable(kind)) continue;
      makers.push_back([config, &host, kind, worker](
                           boost::asio::io_context& io,
                           Clock& clock) -> std::unique_ptr<Adapter> {
        HostConfig one = host;
        one.adapters = {kind};
        auto adapter =
            MakeAdapter(one, AdapterContext{&io, &clock, config.get(), worker});
        return adapter.ok() ? std::move(adapter).value() : nullptr;
      });
    }
    HostSetup setup;
    setup.name = host.name;
    setup.make = makers.front();
    setup.worker = worker;
    setup.cores = host.slots;
    setup.memory_gb = host.memory_gb;
    setup.labels = host.labels;
    const bool batch = host.adapters.front() == AdapterKind::kSlurm ||
                       host.adapters.front() == AdapterKind::kPbs;
    const bool ssh = host.adapters.front() == AdapterKind::kSsh;
    if ((batch && (host.batch.mode == BatchMode::kPilot ||
                   host.batch.mode == BatchMode::kAllocation)) ||
        (ssh && !host.gpus)) {
      // What their allocations or machines show, told by their agents.
      setup.gpu_naming = GpuNaming::kAgents;
    } else if (host.gpus) {
      setup.gpus = *host.gpus;
      if (batch) setup.gpu_naming = GpuNaming::kQueue;
    } else if (host.adapters.front() == AdapterKind::kLocal) {
      setup.gpus = VisibleGpusOfThisMachine();
    }
    setup.spans_nodes = batch && host.batch.mode == BatchMode::kJob;
    if (batch && host.batch.mode == BatchMode::kAllocation &&
        !host.batch.node.empty()) {
      // ExpandAllocationHosts named it ALLOCATION-NODE.
      setup.node = host.batch.node;
      setup.gang_group =
          host.name.substr(0, host.name.size() - host.batch.node.size() - 1);
    }
    setup.prefetch = host.PrefetchDepth();
    setup.prefetch_window = host.PrefetchWindow();
    setup.fallbacks.assign(makers.begin() + 1, makers.end());
    hosts.push_back(std::move(setup));
  }
  if (hosts.empty()) {
    return Status::Unavailable("no host can run jobs:" + refused);
  }
  if (!refused.empty()) {
    Sayf(messages, MessageKind::kWarning, "gsrt: some hosts are not used:%s\n",
         refused.c_str());
  }
  return hosts;
}

}  // namespace

namespace {

// Keeps the page's server for as long as the engine keeps its observers.
class LiveDashboard : public RunObserver {
 public:
  explicit LiveDashboard(std::unique_ptr<DashboardServer> server)
      : server_(std::move(server)) {}

 private:
  std::unique_ptr<DashboardServer> server_;
};

// GSRT_DASHBOARD or runtime.dashboard: the page's state as an observer,
// its server on its own thread.
Status AddDashboard(const RuntimeConfig& rt, MessageSink& messages,
                    EngineOptions* options) {
  std::string address = rt.dashboard;
  std::string what = "runtime.dashboard";
  if (const char* env = std::getenv("GSRT_DASHBOARD"); env && *env) {
    address = env;
    what = "GSRT_DASHBOARD";
  }
  if (address.empty()) return Status::Ok();
  auto parsed = ParseDashboardAddress(address, what);
  if (!parsed.ok()) return parsed.status();
  parsed->now = WallClockNow;
  auto state = std::make_shared<DashboardState>();
  auto server = DashboardServer::Start(state, *parsed);
  if (!server.ok()) return server.status();
  Sayf(messages, MessageKind::kInfo, "gsrt: the run's page: %s\n",
       (*server)->url().c_str());
  options->observers.push_back(state);
  options->observers.push_back(
      std::make_shared<LiveDashboard>(std::move(server).value()));
  return Status::Ok();
}

}  // namespace

MessageSink& MasterMessages() { return StderrMessages(); }

StatusOr<std::unique_ptr<Engine>> StartMasterEngine(MessageSink& messages) {
  auto worker = FindWorker();
  if (!worker.ok()) return worker.status();
  ConfigEnv env = ConfigEnv::FromProcess();
  auto loaded = LoadDefaultConfig(env);
  if (!loaded.ok()) return loaded.status();
  // Stubs of an older gsstubgen register nothing: nothing to check against.
  if (std::vector<std::string> ops = RegisteredOperations(); !ops.empty()) {
    Status known = CheckOperationKeys(*loaded, ops);
    if (!known.ok()) return known;
  }
  if (Status s = ExpandAllocations(&*loaded); !s.ok()) return s;
  // Adapters made later (reconnects) still read it.
  auto config = std::make_shared<const Config>(std::move(loaded).value());
  const RuntimeConfig& rt = config->runtime;
  EngineOptions options;
  options.cwd = env.cwd;
  options.work_dir = rt.work_dir;
  options.history_path = rt.history;
  options.policy = rt.policy;
  options.retries = rt.retries;
  options.operations.timeouts = rt.timeout;
  options.operations.placement = rt.hosts;
  options.replication = rt.replication;
  options.rank = rt.rank;
  options.stall_timeout = rt.stall_timeout;
  options.connect_parallel = rt.connect_parallel;
  options.code_identity_of = [worker = *worker, dir = rt.work_dir] {
    return ReadCodeIdentity(worker, dir);
  };
  std::error_code ec;
  options.program = fs::read_symlink("/proc/self/exe", ec).string();
  if (const char* dot = std::getenv("GSRT_DOT"); dot && *dot) {
    options.dot_path = fs::absolute(dot).string();
  }
  options.progress =
      rt.progress == ProgressMode::kAlways ||
      (rt.progress == ProgressMode::kAuto && ::isatty(STDERR_FILENO) == 1);
  options.handle_signals = true;
  options.messages = &messages;
  std::string trace = rt.trace;
  if (const char* env_trace = std::getenv("GSRT_TRACE");
      env_trace && *env_trace) {
    trace = fs::absolute(env_trace).string();
  }
  options.observers.push_back(std::make_shared<SummaryObserver>(&messages));
  if (Status s = AddDashboard(rt, messages, &options); !s.ok()) return s;
  if (!trace.empty()) {
    auto observer = TraceObserver::Create(trace, &messages);
    if (!observer.ok()) return observer.status();
    options.observers.push_back(std::move(observer).value());
  }
  if (const char* resume = std::getenv("GSRT_RESUME");
      resume && (std::string(resume) == "0" || std::string(resume) == "off")) {
    options.resume = false;
  }
  options.reuse.on = rt.reuse;
  options.reuse.limit = rt.reuse_limit;
  options.reuse.never.insert(rt.never_reuse.begin(), rt.never_reuse.end());
  if (const char* reuse = std::getenv("GSRT_REUSE"); reuse && *reuse) {
    auto mode = ParseReuseMode(reuse);
    if (!mode) {
      return Status::InvalidArgument(
          std::string("GSRT_REUSE='") + reuse +
          "': expected 1 (on), 0 (off) or explain (on, and say why each "
          "task that runs could not be reused)");
    }
    options.reuse.on = *mode != ReuseMode::kOff;
    options.reuse.explain = *mode == ReuseMode::kExplain;
  }
  auto hosts = MakeHosts(config, *worker, messages);
  if (!hosts.ok()) return hosts.status();
  auto engine = std::make_unique<Engine>(options);
  Status s = engine->Start(std::move(hosts).value());
  if (!s.ok()) return s;
  return engine;
}

}  // namespace gs
