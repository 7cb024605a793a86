#include "runtime/deploy/deploy_cli.h"

#include <CLI/CLI.hpp>
#include <ctime>
#include <memory>
#include <utility>

#include "runtime/base/command_line.h"
#include "runtime/base/units.h"
#include "runtime/deploy/deploy_context.h"
#include "runtime/deploy/deploy_format.h"
#include "runtime/deploy/deploy_history_report.h"
#include "runtime/deploy/deploy_json.h"
#include "runtime/deploy/deploy_probe.h"
#include "runtime/deploy/deploy_rank.h"
#include "runtime/deploy/deploy_setup.h"

namespace gs {

namespace {

constexpr char kExitCodes[] =
    "\nExit codes: 0 done; 1 (setup) some host is not ready; 2 bad command "
    "line or configuration (setup: also a host it does not support); 3 "
    "history file unusable.\nManual: gsdeploy.md, "
    "installed in share/doc/gsrt under the installation prefix (docs/ in the "
    "source tree).";

// Runs one subcommand: its configuration and hosts, its streams.
class CommandRunner {
 public:
  CommandRunner(const ConfigEnv& env, std::ostream& out, std::ostream& err)
      : env_(env), out_(out), err_(err) {}

  int Fail(int code, const std::string& message) {
    err_ << "gsdeploy: " << message << "\n";
    return code;
  }

  // The configuration and the hosts the command works on; on failure the
  // exit code is in `code`.
  bool Load(const DeployCommon& common, int* code) {
    StatusOr<Config> config = LoadDeployConfig(common.config, env_);
    if (!config.ok()) {
      *code = Fail(kDeployUsage, config.status().message());
      return false;
    }
    config_ = std::make_shared<const Config>(std::move(config).value());
    auto hosts = SelectHosts(*config_, common.host);
    if (!hosts.ok()) {
      *code = Fail(kDeployUsage, hosts.status().message());
      return false;
    }
    hosts_ = std::move(hosts).value();
    return true;
  }

  int operator()(const DeployProbeArgs& args);
  int operator()(const DeployRankArgs& args);
  int operator()(const DeployHistoryArgs& args);
  int operator()(const DeploySetupArgs& args);

 private:
  // A size option, or the exit code of a malformed one.
  std::optional<uint64_t> Size(const char* option, const std::string& text,
                               const char* examples, int* code) {
    std::optional<uint64_t> bytes = ParseByteSize(text);
    if (!bytes) {
      *code =
          Fail(kDeployUsage, std::string(option) + ": cannot read '" + text +
                                 "' as a size (e.g. " + examples + ")");
    }
    return bytes;
  }

  const ConfigEnv& env_;
  std::ostream& out_;
  std::ostream& err_;
  std::shared_ptr<const Config> config_;
  std::vector<const HostConfig*> hosts_;
};

int CommandRunner::operator()(const DeployProbeArgs& args) {
  int code = kDeployOk;
  if (!Load(args.common, &code)) return code;
  ProbeOptions options;
  options.connect_timeout = args.timeout;
  options.probe_timeout = args.timeout;
  options.parallel = args.parallel;
  std::optional<uint64_t> bytes =
      Size("--transfer-size", args.transfer, "4M, 512K, 1048576", &code);
  if (!bytes) return code;
  options.transfer_bytes = *bytes;
  // Opened first: a probe whose results cannot be kept is not worth making.
  auto history = OpenHistoryForWrite(*config_);
  if (!history.ok()) return Fail(kDeployHistory, history.status().message());
  std::vector<HostProbeResult> results =
      ProbeHosts(hosts_, RegistryAdapterMaker(config_), options);
  Status recorded = RecordProbeResults(**history, *config_, results);
  out_ << FormatProbeResults(results);
  if (!recorded.ok()) return Fail(kDeployHistory, recorded.message());
  out_ << "Recorded in " << (*history)->path() << "\n";
  return kDeployOk;
}

int CommandRunner::operator()(const DeployRankArgs& args) {
  int code = kDeployOk;
  if (!Load(args.common, &code)) return code;
  RankRequest request;
  request.operation = args.op;
  request.weights = config_->runtime.rank;
  if (args.alpha) request.weights.alpha = *args.alpha;
  if (args.beta) request.weights.beta = *args.beta;
  if (args.mu) request.weights.mu = *args.mu;
  if (args.gamma) request.weights.gamma = *args.gamma;
  if (args.distrust_first) request.order = ReliabilityOrder::kDistrustFirst;
  if (!args.mem.empty()) {
    auto mem = Size("--mem", args.mem, "2G, 512M, 1048576", &code);
    if (!mem) return code;
    request.required_memory = *mem;
  }
  if (!args.volume.empty()) {
    auto volume = Size("--volume", args.volume, "100M", &code);
    if (!volume) return code;
    request.volume = static_cast<double>(*volume);
  }
  auto history = OpenHistoryIfExists(*config_);
  if (!history.ok()) return Fail(kDeployHistory, history.status().message());
  RankInputs inputs;
  if (*history) {
    auto read = LoadRankInputs(**history, args.op);
    if (!read.ok()) return Fail(kDeployHistory, read.status().message());
    inputs = std::move(read).value();
  }
  RankReport report = AssembleRanking(hosts_, inputs, request);
  const std::string& path = config_->runtime.history;
  if (!*history) {
    report.notes.insert(report.notes.begin(),
                        "no history at " + path + " yet; run gsdeploy probe");
  }
  out_ << (args.json ? RankReportJson(report, path) : FormatRankReport(report));
  return kDeployOk;
}

int CommandRunner::operator()(const DeployHistoryArgs& args) {
  int code = kDeployOk;
  if (!Load(args.common, &code)) return code;
  HistoryRequest request;
  request.host = args.common.host;
  request.limit = args.limit;
  if (!args.since.empty()) {
    auto since =
        ParseSince(args.since, static_cast<Seconds>(std::time(nullptr)));
    if (!since.ok()) {
      return Fail(kDeployUsage, "--since: " + since.status().message());
    }
    request.since = *since;
  }
  auto history = OpenHistoryIfExists(*config_);
  if (!history.ok()) return Fail(kDeployHistory, history.status().message());
  if (!*history) {
    out_ << "No history at " << config_->runtime.history
         << " yet; gsdeploy probe and runs record it.\n";
    return kDeployOk;
  }
  auto listings = LoadHistoryListings(**history, request);
  if (!listings.ok()) return Fail(kDeployHistory, listings.status().message());
  out_ << FormatHistoryReport(BuildHistoryReport(*listings, request));
  return kDeployOk;
}

int CommandRunner::operator()(const DeploySetupArgs& args) {
  int code = kDeployOk;
  if (!Load(args.common, &code)) return code;
  const SetupRequest request = MakeSetupRequest(args.app, env_.cwd);
  std::vector<SetupHostResult> results =
      SetupHosts(hosts_, request, DefaultInstallerMaker(args.timeout, config_));
  out_ << FormatSetupResults(results);
  for (const SetupHostResult& r : results) {
    // A host setup cannot serve is the configuration's problem: exit 2,
    // whatever the others did.
    if (!r.unsupported.empty()) return kDeployUsage;
    if (!r.ready()) code = kDeployNotReady;
  }
  return code;
}

CLI::App* AddSubcommand(CLI::App& app, const char* name, const char* help,
                        DeployCommon* common, const char* host_help) {
  CLI::App* cmd = app.add_subcommand(name, help);
  cmd->add_option("--config", common->config,
                  "gsrt.yaml to read (default: $GSRT_CONFIG, ./gsrt.yaml, or "
                  "one local host)");
  if (host_help != nullptr) cmd->add_option("--host", common->host, host_help);
  cmd->footer(kExitCodes);
  return cmd;
}

CLI::App* AddProbe(CLI::App& app, DeployProbeArgs* probe) {
  CLI::App* cmd = AddSubcommand(
      app, "probe",
      "Contact every host through its adapter; record whether it answered "
      "(availability), its round trip, cores, memory, load, bandwidth "
      "(timed transfer, hosts not sharing files) and queue wait.",
      &probe->common, "probe only this host");
  cmd->add_option("--timeout", probe->timeout,
                  "seconds each of connect, probe and transfer may take")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--transfer-size", probe->transfer,
                  "test file size for the bandwidth (0: none)")
      ->capture_default_str();
  cmd->add_option("--parallel", probe->parallel, "hosts probed at once")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  return cmd;
}

CLI::App* AddRank(CLI::App& app, DeployRankArgs* rank) {
  CLI::App* cmd = AddSubcommand(
      app, "rank",
      "Rank the configured hosts from the history: availability (eq. 1-2), "
      "distrust (eq. 3), Time = mu*ET + gamma*FTT + delta (eq. 4), rrank, "
      "prank, grank = alpha*rrank + beta*prank (eq. 5); best first.",
      &rank->common, nullptr);
  cmd->add_option("--op", rank->op,
                  "operation whose execution time (ET) and input volume "
                  "come from the history");
  cmd->add_option("--mem", rank->mem,
                  "memory a job needs (e.g. 2G); hosts with less free "
                  "are ineligible");
  cmd->add_option("--volume", rank->volume,
                  "bytes a job moves to the host (default: mean input "
                  "of --op's jobs, else 0)");
  cmd->add_option("--alpha", rank->alpha, "weight of rrank (eq. 5)");
  cmd->add_option("--beta", rank->beta, "weight of prank (eq. 5)");
  cmd->add_option("--mu", rank->mu, "weight of ET (eq. 4)");
  cmd->add_option("--gamma", rank->gamma, "weight of FTT (eq. 4)");
  cmd->add_flag("--distrust-first", rank->distrust_first,
                "order reliability by distrust, then availability");
  cmd->add_flag("--json", rank->json,
                "print one JSON object (schema gsdeploy-rank/1)");
  return cmd;
}

CLI::App* AddHistory(CLI::App& app, DeployHistoryArgs* history) {
  CLI::App* cmd = AddSubcommand(
      app, "history", "Show the recorded probes, checks, failures and jobs.",
      &history->common, "only this host");
  cmd->add_option("--since", history->since,
                  "only events since T: 90s, 30m, 2h, 3d, 1w ago, or "
                  "2024-05-01[T12:30[:15]][Z]");
  cmd->add_option("--limit", history->limit, "newest events shown (0: all)")
      ->capture_default_str();
  return cmd;
}

CLI::App* AddSetup(CLI::App& app, DeploySetupArgs* setup) {
  CLI::App* cmd = AddSubcommand(
      app, "setup",
      "Put APP's worker (APP-worker) on every host that does not share the "
      "master's files when missing or different, and check that it starts "
      "everywhere (APP-worker --version).",
      &setup->common, "set up only this host");
  cmd->add_option("APP", setup->app,
                  "the application's master program (path or name); "
                  "its worker is APP-worker beside it")
      ->required();
  cmd->add_option("--timeout", setup->timeout,
                  "seconds a worker may take to answer --version")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  return cmd;
}

}  // namespace

std::optional<int> ParseDeployArgs(const std::vector<std::string>& args,
                                   DeployCommand* command, std::ostream& out,
                                   std::ostream& err) {
  CLI::App app{
      "gsdeploy: probe the hosts of a gsrt.yaml, keep their history, rank "
      "them by availability, distrust and predicted time (paper 004: "
      "Anciaux-Sedrakian, Badia, Sirvent, Perez, Kielmann, Merzky, \"GRID "
      "superscalar and job mapping on the reliable grid resources\"), and "
      "set them up for an application.",
      "gsdeploy"};
  app.footer(kExitCodes);
  AddVersionFlag(app);
  app.require_subcommand(1);
  DeployProbeArgs probe;
  DeployRankArgs rank;
  DeployHistoryArgs history;
  DeploySetupArgs setup;
  CLI::App* probe_cmd = AddProbe(app, &probe);
  CLI::App* rank_cmd = AddRank(app, &rank);
  CLI::App* history_cmd = AddHistory(app, &history);
  AddSetup(app, &setup);
  if (std::optional<int> stop = ParseCommandLine(app, args, out, err)) {
    return stop;
  }
  if (probe_cmd->parsed()) {
    *command = std::move(probe);
  } else if (rank_cmd->parsed()) {
    *command = std::move(rank);
  } else if (history_cmd->parsed()) {
    *command = std::move(history);
  } else {
    *command = std::move(setup);
  }
  return std::nullopt;
}

int RunDeployCommand(const DeployCommand& command, const ConfigEnv& env,
                     std::ostream& out, std::ostream& err) {
  CommandRunner run(env, out, err);
  return std::visit(run, command);
}

}  // namespace gs
