#include "sim/experiments/sim_experiments.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <random>

#include "runtime/engine/engine.h"
#include "runtime/sched/policies_ft.h"
#include "runtime/sched/policies_volatile.h"
#include "sim/experiments/etc_paper003.h"

namespace gs {

namespace {

// The liveness check of FTMET/FTMCT in a simulation: the host is not DOWN.
class SimHealth : public HostHealth {
 public:
  explicit SimHealth(const SimWorld* world) : world_(world) {}
  bool Alive(HostId h) const override {
    return world_->avail(h) != SimAvail::kDown;
  }

 private:
  const SimWorld* world_;
};

void ApplyFailures(const std::vector<SimFailure>& failures,
                   std::vector<SimHostSpec>* hosts) {
  for (const SimFailure& f : failures) {
    (*hosts)[f.host].trace.push_back({f.at, SimAvail::kDown});
    if (f.until > f.at)
      (*hosts)[f.host].trace.push_back({f.until, SimAvail::kUp});
  }
  for (SimHostSpec& h : *hosts) {
    std::stable_sort(h.trace.begin(), h.trace.end(),
                     [](auto& a, auto& b) { return a.first < b.first; });
  }
}

}  // namespace

StatusOr<SimFailure> ParseSimFailure(std::string_view text) {
  std::string s(text);
  auto at = s.find('@');
  auto bad = [&] {
    return Status::InvalidArgument(
        "--fail '" + s +
        "': expected HOST@TIME or HOST@TIME-UNTIL (a host index and "
        "seconds of virtual time, e.g. 3@1500)");
  };
  if (at == std::string::npos || at == 0) return bad();
  SimFailure f;
  char* end = nullptr;
  f.host = static_cast<uint32_t>(std::strtoul(s.c_str(), &end, 10));
  if (end != s.c_str() + at) return bad();
  f.at = std::strtod(s.c_str() + at + 1, &end);
  if (end == s.c_str() + at + 1 || !std::isfinite(f.at) || f.at < 0)
    return bad();
  if (*end == '-') {
    const char* u = end + 1;
    f.until = std::strtod(u, &end);
    if (end == u || !(f.until > f.at)) return bad();
  }
  if (*end) return bad();
  return f;
}

StatusOr<SimResult> RunEtc(const EtcMatrix& etc, const std::string& policy,
                           const std::vector<SimFailure>& failures,
                           uint64_t seed) {
  std::vector<SimHostSpec> hosts(etc.machines);
  for (size_t m = 0; m < etc.machines; ++m)
    hosts[m].name = "m" + std::to_string(m);
  for (const SimFailure& f : failures) {
    if (f.host >= etc.machines) {
      return Status::InvalidArgument(
          "--fail names host " + std::to_string(f.host) +
          " but the instance has " + std::to_string(etc.machines) +
          " machines (0-based)");
    }
  }
  ApplyFailures(failures, &hosts);
  auto wl = EtcWorkload(etc);
  SimWorld world(std::move(hosts), wl, seed);
  SimHealth health(&world);
  SimRunOptions o;
  o.policy = policy;
  o.configure_policy = [&health](Policy& p) { AttachHostHealth(p, &health); };
  return RunSimulation(world, wl, o, [&](Engine& e) { wl->SubmitAll(e); });
}

StatusOr<std::vector<SimFailure>> TimedPaper003Failures(
    const EtcMatrix& etc, const std::string& policy) {
  std::vector<SimHostSpec> hosts(etc.machines);
  for (size_t m = 0; m < etc.machines; ++m)
    hosts[m].name = "m" + std::to_string(m);
  auto wl = EtcWorkload(etc);
  SimWorld world(std::move(hosts), wl, 1);
  world.stats().record_jobs = true;
  SimRunOptions o;
  o.policy = policy;
  auto r = RunSimulation(world, wl, o, [&](Engine& e) { wl->SubmitAll(e); });
  if (!r.ok()) return r.status();
  std::vector<SimFailure> out;
  for (const MachineFailure& f : Paper003Failures512x16()) {
    if (f.machine >= etc.machines) continue;
    SimFailure sf;
    sf.host = f.machine;
    for (const SimJobRecord& j : world.stats().jobs) {
      size_t k = std::strtoul(j.operation.c_str() + 1, nullptr, 10);
      if (j.host == f.machine && k < f.first_task)
        sf.at = std::max(sf.at, j.ended);
    }
    // Just after that task ends (a failure at the same instant would come
    // first: the availability timer is older).
    sf.at = std::nextafter(sf.at, HUGE_VAL);
    out.push_back(sf);
  }
  return out;
}

StatusOr<DagResult> RunDag(const StgGraph& graph, const DagOptions& opt) {
  if (opt.hosts == 0) return Status::InvalidArgument("--hosts must be > 0");
  DagResult out;
  auto wl =
      StgWorkload(graph, opt.hosts, opt.seed, opt.ccr, opt.bandwidth, &out.cp);
  auto hosts = [&] {
    std::vector<SimHostSpec> h(opt.hosts);
    for (size_t i = 0; i < opt.hosts; ++i) {
      h[i].name = "p" + std::to_string(i);
      h[i].latency = opt.latency;
      h[i].bandwidth = opt.bandwidth;
    }
    return h;
  };
  SimRunOptions o;
  o.policy = opt.policy;
  o.rewind = opt.rewind;
  auto master = [&](Engine& e) { wl->SubmitAll(e); };
  std::vector<uint32_t> busy_mid;  // hosts running a job at mid-run
  {
    SimWorld world(hosts(), wl, opt.seed);
    world.stats().record_jobs = true;
    auto r = RunSimulation(world, wl, o, master);
    if (!r.ok()) return r.status();
    out.base = *r;
    Seconds mid = out.base.makespan / 2;
    for (const SimJobRecord& j : world.stats().jobs) {
      if (j.started <= mid && j.ended > mid &&
          std::find(busy_mid.begin(), busy_mid.end(), j.host) == busy_mid.end())
        busy_mid.push_back(j.host);
    }
    std::sort(busy_mid.begin(), busy_mid.end());
  }
  out.applied = opt.failures;
  if (out.applied.empty() && opt.fail_mid) {
    // A host busy at mid-run (the run up to then is the same with the
    // failure): the engine learns of the loss from its running job, as
    // the paper's failure affects the run. An idle host's loss would only
    // be noticed when the engine next needs it.
    std::mt19937_64 rng(opt.seed * 0xD1B54A32D192ED03ull + 5);
    uint32_t host = busy_mid.empty() ? static_cast<uint32_t>(rng() % opt.hosts)
                                     : busy_mid[rng() % busy_mid.size()];
    out.applied.push_back({host, out.base.makespan / 2, -1});
  }
  for (const SimFailure& f : out.applied) {
    if (f.host >= opt.hosts) {
      return Status::InvalidArgument("--fail names host " +
                                     std::to_string(f.host) + " of " +
                                     std::to_string(opt.hosts) + " (0-based)");
    }
  }
  auto spec = hosts();
  ApplyFailures(out.applied, &spec);
  SimWorld world(std::move(spec), wl, opt.seed);
  auto r = RunSimulation(world, wl, o, master);
  if (!r.ok()) return r.status();
  out.failed = *r;
  out.nsl = out.cp > 0 ? out.base.makespan / out.cp : 0;
  out.nsl_r = out.cp > 0 ? out.failed.makespan / out.cp : 0;
  out.aet = out.nsl_r - out.nsl;
  return out;
}

StatusOr<SimResult> RunBot(const BotOptions& opt) {
  if (opt.hosts == 0 || opt.slots < 1)
    return Status::InvalidArgument("--hosts and --slots must be positive");
  if (!(opt.speed_spread >= 0 && opt.speed_spread < 1))
    return Status::InvalidArgument("--speed-spread must be in [0, 1)");
  if (!(opt.mtbf_spread >= 0 && opt.mtbf_spread < 1))
    return Status::InvalidArgument("--mtbf-spread must be in [0, 1)");
  std::mt19937_64 rng(opt.seed * 0xA24BAED4963EE407ull + 11);
  // Its own stream: a spread leaves the speeds drawn as without one.
  std::mt19937_64 reliability(opt.seed * 0xD6E8FEB86659FD93ull + 13);
  std::vector<double> speeds(opt.hosts);
  std::vector<SimHostSpec> hosts(opt.hosts);
  for (size_t h = 0; h < opt.hosts; ++h) {
    speeds[h] =
        1 - opt.speed_spread +
        2 * opt.speed_spread * (static_cast<double>(rng() >> 11) * 0x1.0p-53);
    hosts[h].name = "h" + std::to_string(h);
    hosts[h].slots = opt.slots;
    if (opt.mtbf > 0) {
      MarkovAvailability m;
      double mtbf = opt.mtbf;
      if (opt.mtbf_spread > 0) {
        mtbf *= 1 - opt.mtbf_spread +
                2 * opt.mtbf_spread *
                    (static_cast<double>(reliability() >> 11) * 0x1.0p-53);
      }
      double down = 1 / std::max(mtbf, 1.0);
      double up = opt.mttr > 0 ? 1 / opt.mttr : 1;
      m.p[0][0] = 1 - down;
      m.p[0][2] = down;
      m.p[0][1] = 0;
      m.p[2][2] = 1 - up;
      m.p[2][0] = up;
      m.p[2][1] = 0;
      hosts[h].markov = m;
    }
  }
  for (const SimFailure& f : opt.failures) {
    if (f.host >= opt.hosts) {
      return Status::InvalidArgument("--fail names host " +
                                     std::to_string(f.host) + " of " +
                                     std::to_string(opt.hosts) + " (0-based)");
    }
  }
  ApplyFailures(opt.failures, &hosts);
  if (!opt.trace.empty()) {
    Status s = LoadAvailabilityTrace(opt.trace, &hosts);
    if (!s.ok()) return s;
  }
  if (opt.threshold < 0)
    return Status::InvalidArgument("--threshold must be at least 1");
  auto wl = BagWorkload(opt.tasks, opt.mean, speeds, opt.seed);
  SimWorld world(std::move(hosts), wl, opt.seed);
  world.stats().record_jobs = true;  // for mean_task_end
  SimRunOptions o;
  o.policy = opt.policy;
  o.replication_threshold = opt.threshold;
  // Paper 001: "WQR does not do anything when a task fails"; WQR-FT adds
  // the automatic restart.
  if (opt.policy == "wqr") o.infra_retries = 0;
  return RunSimulation(world, wl, o, [&](Engine& e) { wl->SubmitAll(e); });
}

namespace {

class WorldVolatileHosts : public VolatileHosts {
 public:
  WorldVolatileHosts(const SimWorld* world, Seconds slot, uint32_t m)
      : world_(world), slot_(slot), m_(m), comm_(world->communication()) {
    for (size_t h = 0; h < world->num_hosts(); ++h) {
      AvailabilityChain c;
      const auto& mk = world->host(h).markov;
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) c.p[i][j] = mk ? mk->p[i][j] : i == j;
      chains_.push_back(c);
    }
  }
  Seconds slot() const override { return slot_; }
  const AvailabilityChain& chain(HostId h) const override { return chains_[h]; }
  HostAvail state(HostId h) const override {
    return static_cast<HostAvail>(world_->avail(h));
  }
  uint32_t tasks_per_configuration() const override { return m_; }
  // What the simulated master link costs (slots), as the hosts stand now.
  double program_slots(HostId h) const override {
    return world_->has_program(h) ? 0 : comm_.program / slot_;
  }
  double data_slots() const override { return comm_.data / slot_; }
  uint32_t data_held(HostId h) const override {
    return static_cast<uint32_t>(world_->data_held(h));
  }
  uint32_t n_com() const override { return comm_.n_com; }

 private:
  const SimWorld* world_;
  Seconds slot_;
  uint32_t m_;
  SimCommunication comm_;
  std::vector<AvailabilityChain> chains_;
};

}  // namespace

StatusOr<VolatileResult> RunVolatile(const VolatileOptions& opt) {
  if (opt.hosts == 0 || opt.m == 0 || opt.max_slots < 1 || !(opt.slot > 0))
    return Status::InvalidArgument(
        "--hosts, --m, --max-slots and --slot must be positive");
  if (!(opt.t_prog >= 0) || !(opt.t_data >= 0))
    return Status::InvalidArgument("--t-prog and --t-data must be >= 0");
  std::mt19937_64 rng(opt.seed * 0x94D049BB133111EBull + 23);
  auto u = [&](double a, double b) {
    return a + (b - a) * (static_cast<double>(rng() >> 11) * 0x1.0p-53);
  };
  std::vector<SimHostSpec> hosts(opt.hosts);
  std::vector<Seconds> w(opt.hosts);
  size_t total_slots = 0;
  for (size_t h = 0; h < opt.hosts; ++h) {
    hosts[h].name = "v" + std::to_string(h);
    w[h] = u(opt.w_min, opt.w_max);
    hosts[h].slots = 1 + static_cast<int>(rng() % opt.max_slots);
    total_slots += hosts[h].slots;
    MarkovAvailability mk;
    mk.slot = opt.slot;
    double ud = u(0.0005, 0.005), ur = u(0.001, 0.01);
    mk.p[0][0] = 1 - ud - ur;
    mk.p[0][1] = ur;
    mk.p[0][2] = ud;
    double rr = u(0.8, 0.95);
    mk.p[1][1] = rr;
    mk.p[1][2] = 0.1 * (1 - rr);
    mk.p[1][0] = 0.9 * (1 - rr);
    double dd = u(0.95, 0.995);
    mk.p[2][2] = dd;
    mk.p[2][0] = 1 - dd;
    mk.p[2][1] = 0;
    hosts[h].markov = mk;
  }
  if (total_slots < opt.m) {
    return Status::InvalidArgument(
        "the hosts have " + std::to_string(total_slots) +
        " slots in all, fewer than --m " + std::to_string(opt.m));
  }
  auto wl = std::make_shared<SimWorkload>(opt.hosts);
  wl->SetIteration(opt.m, w);
  SimWorld world(std::move(hosts), wl, opt.seed);
  world.set_communication({opt.t_prog, opt.t_data, opt.n_com});
  WorldVolatileHosts model(&world, opt.slot, opt.m);
  SimRunOptions o;
  o.policy = opt.policy;
  o.reconnect_backoff = opt.slot;
  o.reconnect_backoff_max = 10 * opt.slot;
  o.configure_policy = [&model](Policy& p) { AttachVolatileHosts(p, &model); };
  VolatileResult out;
  auto r = RunSimulation(world, wl, o, [&](Engine& e) {
    for (uint32_t it = 0; e.Now() < opt.deadline; ++it) {
      wl->SubmitIteration(e, it);
      e.Barrier();
      if (e.Now() <= opt.deadline) ++out.iterations;
    }
  });
  if (!r.ok()) return r.status();
  out.run = *r;
  out.program_sends = world.stats().program_sends;
  out.data_sends = world.stats().data_sends;
  out.data_reused = world.stats().data_reused;
  return out;
}

}  // namespace gs
