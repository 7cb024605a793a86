// gsdeploy: probe the configured hosts, keep their history, rank them
// (paper 004 section 2) and set them up for an application. Thin: the
// work is in runtime/deploy_*; this parses the command line, calls it and
// prints. docs/gsdeploy.md is the manual.
//
// Exit codes: 0 done; 1 setup found hosts not ready; 2 bad command line or
// configuration (unknown host, malformed gsrt.yaml); 3 the history file is
// unusable (unreadable, not a gsrt history, newer schema, not writable).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <ctime>
#include <memory>
#include <optional>
#include <string>

#include "runtime/base/units.h"
#include "runtime/config/config.h"
#include "runtime/deploy/deploy_context.h"
#include "runtime/deploy/deploy_format.h"
#include "runtime/deploy/deploy_history_report.h"
#include "runtime/deploy/deploy_json.h"
#include "runtime/deploy/deploy_probe.h"
#include "runtime/deploy/deploy_rank.h"
#include "runtime/deploy/deploy_setup.h"

namespace {

constexpr int kOk = 0;
constexpr int kNotReady = 1;
constexpr int kUsage = 2;
constexpr int kHistory = 3;

constexpr char kExitCodes[] =
    "\nExit codes: 0 done; 1 (setup) some host is not ready; 2 bad command "
    "line or configuration; 3 history file unusable.\nManual: "
    "docs/gsdeploy.md";

int Fail(int code, const std::string& message) {
  std::fprintf(stderr, "gsdeploy: %s\n", message.c_str());
  return code;
}

struct Common {
  std::string config;
  std::string host;
};

// The configuration and the hosts the command works on, or the exit code.
struct Loaded {
  std::shared_ptr<const gs::Config> config;
  std::vector<const gs::HostConfig*> hosts;
};

std::optional<Loaded> Load(const Common& common, int* exit_code) {
  gs::StatusOr<gs::Config> config =
      gs::LoadDeployConfig(common.config, gs::ConfigEnv::FromProcess());
  if (!config.ok()) {
    *exit_code = Fail(kUsage, config.status().message());
    return std::nullopt;
  }
  Loaded loaded;
  loaded.config = std::make_shared<const gs::Config>(std::move(config).value());
  auto hosts = gs::SelectHosts(*loaded.config, common.host);
  if (!hosts.ok()) {
    *exit_code = Fail(kUsage, hosts.status().message());
    return std::nullopt;
  }
  loaded.hosts = std::move(hosts).value();
  return loaded;
}

struct ProbeArgs {
  Common common;
  double timeout = 30;
  std::string transfer = "4M";
  int parallel = 8;
};

int RunProbe(const ProbeArgs& args) {
  int code = kOk;
  std::optional<Loaded> loaded = Load(args.common, &code);
  if (!loaded) return code;
  gs::ProbeOptions options;
  options.connect_timeout = args.timeout;
  options.probe_timeout = args.timeout;
  options.parallel = args.parallel;
  std::optional<uint64_t> bytes = gs::ParseByteSize(args.transfer);
  if (!bytes) {
    return Fail(kUsage, "--transfer-size: cannot read '" + args.transfer +
                            "' as a size (e.g. 4M, 512K, 1048576)");
  }
  options.transfer_bytes = *bytes;
  // Opened first: a probe whose results cannot be kept is not worth making.
  auto history = gs::OpenHistoryForWrite(*loaded->config);
  if (!history.ok()) return Fail(kHistory, history.status().message());
  std::vector<gs::HostProbeResult> results = gs::ProbeHosts(
      loaded->hosts, gs::RegistryAdapterMaker(loaded->config), options);
  gs::Status recorded =
      gs::RecordProbeResults(**history, *loaded->config, results);
  std::fputs(gs::FormatProbeResults(results).c_str(), stdout);
  if (!recorded.ok()) return Fail(kHistory, recorded.message());
  std::printf("Recorded in %s\n", (*history)->path().c_str());
  return kOk;
}

struct RankArgs {
  Common common;
  std::string op;
  std::string mem;
  std::string volume;
  std::optional<double> alpha, beta, mu, gamma;
  bool distrust_first = false;
  bool json = false;
};

int RunRank(const RankArgs& args) {
  int code = kOk;
  std::optional<Loaded> loaded = Load(args.common, &code);
  if (!loaded) return code;
  gs::RankRequest request;
  request.operation = args.op;
  request.weights = loaded->config->runtime.rank;
  if (args.alpha) request.weights.alpha = *args.alpha;
  if (args.beta) request.weights.beta = *args.beta;
  if (args.mu) request.weights.mu = *args.mu;
  if (args.gamma) request.weights.gamma = *args.gamma;
  if (args.distrust_first) request.order = gs::ReliabilityOrder::kDistrustFirst;
  if (!args.mem.empty()) {
    std::optional<uint64_t> mem = gs::ParseByteSize(args.mem);
    if (!mem) {
      return Fail(kUsage, "--mem: cannot read '" + args.mem +
                              "' as a size (e.g. 2G, 512M, 1048576)");
    }
    request.required_memory = *mem;
  }
  if (!args.volume.empty()) {
    std::optional<uint64_t> volume = gs::ParseByteSize(args.volume);
    if (!volume) {
      return Fail(kUsage, "--volume: cannot read '" + args.volume +
                              "' as a size (e.g. 100M)");
    }
    request.volume = static_cast<double>(*volume);
  }
  auto history = gs::OpenHistoryIfExists(*loaded->config);
  if (!history.ok()) return Fail(kHistory, history.status().message());
  gs::RankInputs inputs;
  if (*history) {
    auto read = gs::LoadRankInputs(**history, args.op);
    if (!read.ok()) return Fail(kHistory, read.status().message());
    inputs = std::move(read).value();
  }
  gs::RankReport report = gs::AssembleRanking(loaded->hosts, inputs, request);
  const std::string& path = loaded->config->runtime.history;
  if (!*history) {
    report.notes.insert(report.notes.begin(),
                        "no history at " + path + " yet; run gsdeploy probe");
  }
  std::fputs(args.json ? gs::RankReportJson(report, path).c_str()
                       : gs::FormatRankReport(report).c_str(),
             stdout);
  return kOk;
}

struct HistoryArgs {
  Common common;
  std::string since;
  size_t limit = 100;
};

int RunHistory(const HistoryArgs& args) {
  int code = kOk;
  std::optional<Loaded> loaded = Load(args.common, &code);
  if (!loaded) return code;
  gs::HistoryRequest request;
  request.host = args.common.host;
  request.limit = args.limit;
  if (!args.since.empty()) {
    auto since = gs::ParseSince(args.since,
                                static_cast<gs::Seconds>(std::time(nullptr)));
    if (!since.ok())
      return Fail(kUsage, "--since: " + since.status().message());
    request.since = *since;
  }
  auto history = gs::OpenHistoryIfExists(*loaded->config);
  if (!history.ok()) return Fail(kHistory, history.status().message());
  if (!*history) {
    std::printf("No history at %s yet; gsdeploy probe and runs record it.\n",
                loaded->config->runtime.history.c_str());
    return kOk;
  }
  auto listings = gs::LoadHistoryListings(**history, request);
  if (!listings.ok()) return Fail(kHistory, listings.status().message());
  std::fputs(gs::FormatHistoryReport(gs::BuildHistoryReport(*listings, request))
                 .c_str(),
             stdout);
  return kOk;
}

struct SetupArgs {
  Common common;
  std::string app;
  double timeout = 60;
};

int RunSetup(const SetupArgs& args) {
  int code = kOk;
  std::optional<Loaded> loaded = Load(args.common, &code);
  if (!loaded) return code;
  const gs::SetupRequest request =
      gs::MakeSetupRequest(args.app, gs::ConfigEnv::FromProcess().cwd);
  std::vector<gs::SetupHostResult> results = gs::SetupHosts(
      loaded->hosts, request, gs::DefaultInstallerMaker(args.timeout));
  std::fputs(gs::FormatSetupResults(results).c_str(), stdout);
  for (const gs::SetupHostResult& r : results) {
    if (!r.ready()) return kNotReady;
  }
  return kOk;
}

void AddCommon(CLI::App* cmd, Common* common, bool with_host,
               const char* host_help) {
  cmd->add_option("--config", common->config,
                  "gsrt.yaml to read (default: $GSRT_CONFIG, ./gsrt.yaml, or "
                  "one local host)");
  if (with_host) cmd->add_option("--host", common->host, host_help);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "gsdeploy: probe the hosts of a gsrt.yaml, keep their history, rank "
      "them by availability, distrust and predicted time (paper 004), and "
      "set them up for an application."};
  app.footer(kExitCodes);
  app.require_subcommand(1);

  ProbeArgs probe;
  CLI::App* probe_cmd = app.add_subcommand(
      "probe",
      "Contact every host through its adapter; record whether it answered "
      "(availability), its round trip, cores, memory, load, bandwidth "
      "(timed transfer, hosts not sharing files) and queue wait.");
  AddCommon(probe_cmd, &probe.common, true, "probe only this host");
  probe_cmd
      ->add_option("--timeout", probe.timeout,
                   "seconds each of connect, probe and transfer may take")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  probe_cmd
      ->add_option("--transfer-size", probe.transfer,
                   "test file size for the bandwidth (0: none)")
      ->capture_default_str();
  probe_cmd->add_option("--parallel", probe.parallel, "hosts probed at once")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  probe_cmd->footer(kExitCodes);

  RankArgs rank;
  CLI::App* rank_cmd = app.add_subcommand(
      "rank",
      "Rank the configured hosts from the history: availability (eq. 1-2), "
      "distrust (eq. 3), Time = mu*ET + gamma*FTT + delta (eq. 4), rrank, "
      "prank, grank = alpha*rrank + beta*prank (eq. 5); best first.");
  AddCommon(rank_cmd, &rank.common, false, "");
  rank_cmd->add_option("--op", rank.op,
                       "operation whose execution time (ET) and input volume "
                       "come from the history");
  rank_cmd->add_option("--mem", rank.mem,
                       "memory a job needs (e.g. 2G); hosts with less free "
                       "are ineligible");
  rank_cmd->add_option("--volume", rank.volume,
                       "bytes a job moves to the host (default: mean input "
                       "of --op's jobs, else 0)");
  rank_cmd->add_option("--alpha", rank.alpha, "weight of rrank (eq. 5)");
  rank_cmd->add_option("--beta", rank.beta, "weight of prank (eq. 5)");
  rank_cmd->add_option("--mu", rank.mu, "weight of ET (eq. 4)");
  rank_cmd->add_option("--gamma", rank.gamma, "weight of FTT (eq. 4)");
  rank_cmd->add_flag("--distrust-first", rank.distrust_first,
                     "order reliability by distrust, then availability");
  rank_cmd->add_flag("--json", rank.json,
                     "print one JSON object (schema gsdeploy-rank/1)");
  rank_cmd->footer(kExitCodes);

  HistoryArgs history;
  CLI::App* history_cmd = app.add_subcommand(
      "history", "Show the recorded probes, checks, failures and jobs.");
  AddCommon(history_cmd, &history.common, true, "only this host");
  history_cmd->add_option("--since", history.since,
                          "only events since T: 90s, 30m, 2h, 3d, 1w ago, or "
                          "2024-05-01[T12:30[:15]][Z]");
  history_cmd
      ->add_option("--limit", history.limit, "newest events shown (0: all)")
      ->capture_default_str();
  history_cmd->footer(kExitCodes);

  SetupArgs setup;
  CLI::App* setup_cmd = app.add_subcommand(
      "setup",
      "Put APP's worker (APP-worker) on every host that does not share the "
      "master's files when missing or different, and check that it starts "
      "everywhere (APP-worker --version).");
  AddCommon(setup_cmd, &setup.common, true, "set up only this host");
  setup_cmd
      ->add_option("APP", setup.app,
                   "the application's master program (path or name); "
                   "its worker is APP-worker beside it")
      ->required();
  setup_cmd
      ->add_option("--timeout", setup.timeout,
                   "seconds a worker may take to answer --version")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  setup_cmd->footer(kExitCodes);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kUsage;
  }
  if (probe_cmd->parsed()) return RunProbe(probe);
  if (rank_cmd->parsed()) return RunRank(rank);
  if (history_cmd->parsed()) return RunHistory(history);
  return RunSetup(setup);
}
