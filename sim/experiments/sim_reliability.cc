#include "sim/experiments/sim_reliability.h"

#include <filesystem>
#include <map>

#include "runtime/engine/engine.h"
#include "runtime/history/history.h"
#include "runtime/sched/host_ranking.h"
#include "sim/runner/scratch_dir.h"
#include "sim/runner/sim_workload.h"

namespace gs {

namespace fs = std::filesystem;

std::vector<ReliabilityHost> Paper004Hosts() {
  // name, availability, file transfer time (table 1), queue wait (table 2),
  // speed (ours).
  return {{"fs1.das2.liacs.nl", 1.00, 11.0, 12, 1.0},
          {"fs0.das2.cs.vu.nl", 0.88, 11.2, 10, 1.5},
          {"fs3.das2.ewi.tudelft.nl", 0.61, 11.1, 80, 1.2},
          {"fs2.das2.nikhef.nl", 0.79, 11.3, 135, 1.3}};
}

std::vector<SimHostSpec> ReliabilitySimHosts(
    const std::vector<ReliabilityHost>& hosts, int slots, Seconds mttr) {
  std::vector<SimHostSpec> out(hosts.size());
  for (size_t h = 0; h < hosts.size(); ++h) {
    out[h].name = hosts[h].name;
    out[h].slots = slots;
    out[h].latency = hosts[h].transfer;
    out[h].queue_wait = hosts[h].queue_wait;
    const double a = hosts[h].availability;
    if (a >= 1 || mttr <= 0) continue;
    // Long-run UP share a = MTBF / (MTBF + MTTR), one-second slots.
    const double mtbf = a / (1 - a) * mttr;
    MarkovAvailability m;
    m.p[0][0] = 1 - 1 / mtbf;
    m.p[0][2] = 1 / mtbf;
    m.p[2][2] = 1 - 1 / mttr;
    m.p[2][0] = 1 / mttr;
    out[h].markov = m;
  }
  return out;
}

namespace {

std::vector<double> Speeds(const std::vector<ReliabilityHost>& hosts) {
  std::vector<double> s;
  for (const ReliabilityHost& h : hosts) s.push_back(h.speed);
  return s;
}

StatusOr<SimResult> RunOnce(const std::vector<ReliabilityHost>& hosts,
                            const ReliabilityOptions& options,
                            const std::string& policy, uint64_t seed,
                            const std::string& history_path) {
  auto wl = BagWorkload(options.tasks, options.mean, Speeds(hosts), seed);
  SimWorld world(ReliabilitySimHosts(hosts, options.slots, options.mttr), wl,
                 seed);
  world.stats().record_jobs = true;  // for mean_task_end
  SimRunOptions o;
  o.policy = policy;
  o.history_path = history_path;
  o.rank = options.rank;
  return RunSimulation(world, wl, o, [&](Engine& e) { wl->SubmitAll(e); });
}

}  // namespace

Status FillHistory(const std::vector<ReliabilityHost>& hosts,
                   const ReliabilityOptions& options,
                   const std::string& history_path) {
  for (int i = 0; i < options.learn_runs; ++i) {
    StatusOr<SimResult> r =
        RunOnce(hosts, options, "mct", options.seed + 1000 + i, history_path);
    if (!r.ok()) return r.status();
  }
  return Status::Ok();
}

StatusOr<std::vector<SimRow>> Table1FromHistory(
    const std::vector<ReliabilityHost>& hosts, Seconds mean,
    const RankWeights& rank, const std::string& history_path) {
  auto history = History::Open(history_path);
  if (!history.ok()) return history.status();
  std::vector<HostFacts> facts;
  for (const ReliabilityHost& h : hosts) {
    auto r = (*history)->LoadHostReliability(h.name);
    if (!r.ok()) return r.status();
    HostFacts f;
    f.name = h.name;
    f.attempts = r->attempts;
    f.not_answered = r->not_answered;
    f.distrust = r->distrust;
    f.et = mean / h.speed;
    f.latency = h.transfer;
    f.queue_wait = h.queue_wait;
    facts.push_back(f);
  }
  RankOptions ro;
  ro.alpha = rank.alpha;
  ro.beta = rank.beta;
  ro.mu = rank.mu;
  ro.gamma = rank.gamma;
  Ranking ranking = RankHosts(facts, ro);
  std::map<std::string, HostRank> by_name;
  for (const HostRank& r : ranking.ranked) by_name[r.name] = r;
  std::vector<SimRow> rows;
  for (const HostFacts& f : facts) {
    const HostRank& r = by_name[f.name];
    rows.push_back({f.name,
                    {{"availability", Availability(f.not_answered, f.attempts)},
                     {"distrust", static_cast<double>(f.distrust)},
                     {"checks", static_cast<double>(f.attempts)},
                     {"not_answered", static_cast<double>(f.not_answered)},
                     {"transfer", f.latency},
                     {"queue_wait", f.queue_wait},
                     {"time", r.time},
                     {"rrank", static_cast<double>(r.rrank)},
                     {"prank", static_cast<double>(r.prank)},
                     {"grank", r.grank}}});
  }
  return rows;
}

StatusOr<SimResult> RunWithHistory(const std::vector<ReliabilityHost>& hosts,
                                   const ReliabilityOptions& options,
                                   const std::string& policy,
                                   const std::string& history_path) {
  auto scratch = ScratchDir::Make(fs::temp_directory_path(), "gsrt-rel");
  if (!scratch.ok()) return scratch.status();
  const std::string copy = (*scratch)->path() + "/history.db";
  std::error_code ec;
  fs::copy_file(history_path, copy, ec);
  if (ec) {
    return Status::IoError("cannot copy the history " + history_path + ": " +
                           ec.message());
  }
  return RunOnce(hosts, options, policy, options.seed, copy);
}

}  // namespace gs
