#include "adapters/simulated/sim_world.h"

#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include "adapters/simulated/sim_adapter.h"
#include "adapters/simulated/sim_runtime.h"

namespace gs {

namespace {

// Uniform in [0, 1) from 53 random bits: the same on every platform.
double Uniform(std::mt19937_64& rng) {
  return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

}  // namespace

std::string_view SimAvailName(SimAvail a) {
  switch (a) {
    case SimAvail::kUp:
      return "up";
    case SimAvail::kReclaimed:
      return "reclaimed";
    case SimAvail::kDown:
      return "down";
  }
  return "?";
}

SimWorld::SimWorld(std::vector<SimHostSpec> hosts,
                   std::shared_ptr<const SimWorkModel> work, uint64_t seed)
    : rt_(std::make_unique<Runtime>()),
      hosts_(std::move(hosts)),
      work_(std::move(work)),
      seed_(seed) {
  rt_->world = this;
  rt_->hosts.resize(hosts_.size());
  for (size_t h = 0; h < hosts_.size(); ++h) {
    // One stream per host: a host's availability does not depend on how
    // many others there are.
    rt_->hosts[h].rng.seed(seed * 0x9E3779B97F4A7C15ull + h * 7919 + 1);
  }
  stats_.busy.assign(hosts_.size(), 0);
}

SimWorld::~SimWorld() = default;

std::unique_ptr<Adapter> SimWorld::MakeAdapter(uint32_t h, Clock& clock) {
  rt_->clock = &clock;
  return std::make_unique<SimAdapter>(this, h, &clock);
}

SimAvail SimWorld::avail(uint32_t h) const { return rt_->hosts[h].avail; }

bool SimWorld::has_program(uint32_t h) const {
  return communication_.program <= 0 || rt_->hosts[h].has_program;
}

int SimWorld::data_held(uint32_t h) const { return rt_->hosts[h].data_held; }

uint64_t SimWorld::MasterFileSize(const std::string& path) const {
  if (auto it = master_sizes_.find(path); it != master_sizes_.end())
    return it->second;
  struct stat st;
  if (::stat(path.c_str(), &st) == 0) return st.st_size;
  return 0;
}

void SimWorld::SetMasterFileSize(const std::string& path, uint64_t size) {
  master_sizes_[path] = size;
}

// --- Availability ---

void SimWorld::Runtime::StartProcess(uint32_t h) {
  Host& host = hosts[h];
  if (host.process_started) return;
  host.process_started = true;
  ScheduleNextChange(h);
}

void SimWorld::Runtime::ScheduleNextChange(uint32_t h) {
  Host& host = hosts[h];
  const SimHostSpec& spec = world->hosts_[h];
  if (spec.markov) {
    const MarkovAvailability& m = *spec.markov;
    int i = static_cast<int>(host.avail);
    double stay = m.p[i][i];
    if (stay >= 1) return;  // absorbing
    // Slots until the chain leaves state i: geometric with success
    // probability 1 - stay (exact for the discrete chain).
    double u = Uniform(host.rng);
    double slots =
        stay <= 0 ? 1 : std::floor(std::log1p(-u) / std::log(stay)) + 1;
    double r = Uniform(host.rng) * (1 - stay);
    int next = i;
    for (int j = 0; j < 3; ++j) {
      if (j == i) continue;
      next = j;
      if (r < m.p[i][j]) break;
      r -= m.p[i][j];
    }
    host.avail_timer = clock->After(slots * m.slot, [this, h, next] {
      ++world->stats_.events;
      SetAvail(h, static_cast<SimAvail>(next));
      ScheduleNextChange(h);
    });
    return;
  }
  if (host.trace_next >= spec.trace.size()) return;
  auto [when, state] = spec.trace[host.trace_next++];
  host.avail_timer =
      clock->After(when - clock->Now(), [this, h, state = state] {
        ++world->stats_.events;
        SetAvail(h, state);
        ScheduleNextChange(h);
      });
}

void SimWorld::Runtime::SetAvail(uint32_t h, SimAvail a) {
  Host& host = hosts[h];
  SimAvail old = host.avail;
  if (old == a) return;
  host.avail = a;
  if (link) link->SetHostUp(h, a == SimAvail::kUp);
  if (a == SimAvail::kDown) {
    ++world->stats_.host_downs;
    host.connected = false;
    host.files.clear();
    host.has_program = false;  // and what it was receiving, below
    host.data_key.clear();
    host.data_held = 0;
    if (host.program_transfer) link->Drop(host.program_transfer);
    host.program_transfer = 0;
    FailTransfers(h, "host " + world->hosts_[h].name + " went down");
    std::vector<std::shared_ptr<SimGang>> gangs;
    for (auto& [id, job] : host.jobs) {
      if (std::find(gangs.begin(), gangs.end(), job->gang) == gangs.end())
        gangs.push_back(job->gang);
    }
    for (auto& g : gangs) {
      Abort(g.get(), h, "host " + world->hosts_[h].name + " went down", false);
    }
    return;
  }
  // UP <-> RECLAIMED (or back from DOWN): gangs with a member here pause or
  // resume.
  std::vector<SimGang*> gangs;
  for (auto& [id, job] : host.jobs) {
    if (std::find(gangs.begin(), gangs.end(), job->gang.get()) == gangs.end())
      gangs.push_back(job->gang.get());
  }
  for (SimGang* g : gangs) Update(g);
}

// --- Jobs ---

void SimWorld::Runtime::Later(Seconds delay, std::function<void()> fn) {
  uint64_t id = next_later++;
  later[id] = clock->After(delay, [this, id, fn = std::move(fn)] {
    ++world->stats_.events;
    later.erase(id);
    fn();
  });
}

void SimWorld::Runtime::Report(SimJob* job, JobOutcome outcome) {
  JobReport r;
  r.id = job->id;
  r.outcome = std::move(outcome);
  r.submitted = job->submitted;
  r.started = job->started < 0 ? clock->Now() : job->started;
  r.ended = clock->Now();
  Later(0, [done = std::move(job->done), r = std::move(r)]() mutable {
    done(std::move(r));
  });
}

void SimWorld::Runtime::Submit(uint32_t h, JobSpec spec,
                               Adapter::DoneCallback done) {
  Host& host = hosts[h];
  auto job = std::make_unique<SimJob>();
  job->id = spec.id;
  job->host = h;
  job->submitted = clock->Now();
  job->done = std::move(done);
  job->spec = std::move(spec);
  if (host.avail == SimAvail::kDown || !host.connected) {
    ++world->stats_.jobs_failed;
    Report(job.get(),
           HostFailed{"host " + world->hosts_[h].name +
                      (host.avail == SimAvail::kDown
                           ? " is down"
                           : " was down since the last contact; its files "
                             "are lost")});
    return;
  }
  SimWorkModel::Gang gk = world->work_->GangOf(job->spec);
  std::shared_ptr<SimGang> gang;
  if (!gk.key.empty() && gk.size > 1) {
    auto& slot = forming[gk.key];
    if (!slot) {
      slot = std::make_shared<SimGang>();
      slot->key = gk.key;
      slot->size = gk.size;
    }
    gang = slot;
    if (gang->members.size() + 1 >= gang->size) forming.erase(gk.key);
  } else {
    gang = std::make_shared<SimGang>();
  }
  job->gang = gang;
  gang->members.push_back(job.get());
  SimJob* j = job.get();
  host.busy_cores += std::max(1, j->spec.cores);
  host.jobs.emplace(j->id, std::move(job));
  ++world->stats_.jobs_started;
  j->queue_timer = clock->After(world->hosts_[h].queue_wait, [this, j] {
    ++world->stats_.events;
    Begin(j);
  });
}

void SimWorld::Runtime::Begin(SimJob* job) {
  job->started = clock->Now();
  Receive(job);
}

void SimWorld::Runtime::Receive(SimJob* job) {
  const SimCommunication& comm = world->communication_;
  if (comm.program <= 0 && comm.data <= 0) {
    Received(job);
    return;
  }
  if (!link) {
    link = std::make_unique<SimMasterLink>(clock, comm.n_com);
    for (uint32_t q = 0; q < hosts.size(); ++q)
      link->SetHostUp(q, hosts[q].avail == SimAvail::kUp);
  }
  const uint32_t h = job->host;
  Host& host = hosts[h];
  if (comm.program > 0 && !host.has_program && host.program_transfer == 0) {
    host.program_transfer = link->Send(h, comm.program, [this, h] {
      ++world->stats_.events;
      ++world->stats_.program_sends;
      Host& to = hosts[h];
      to.program_transfer = 0;
      to.has_program = true;
      std::vector<SimJob*> waiting;
      for (auto& [id, j] : to.jobs)
        if (j->data_received && !j->received) waiting.push_back(j.get());
      for (SimJob* j : waiting) Received(j);
    });
  }
  auto data_in = [this, job] {
    job->data_transfer = 0;
    job->data_received = true;
    if (world->communication_.program <= 0 || hosts[job->host].has_program)
      Received(job);
  };
  const std::string& key = job->gang->key;
  if (comm.data <= 0 || (!key.empty() && ClaimHeldData(job))) {
    data_in();
    return;
  }
  job->data_transfer = link->Send(h, comm.data, [this, data_in, job] {
    ++world->stats_.events;
    ++world->stats_.data_sends;
    Host& to = hosts[job->host];
    if (to.data_key != job->gang->key) {
      to.data_key = job->gang->key;
      to.data_held = 0;
    }
    ++to.data_held;
    data_in();
  });
}

bool SimWorld::Runtime::ClaimHeldData(SimJob* job) {
  Host& host = hosts[job->host];
  if (host.data_key != job->gang->key) return false;
  int claimed = 0;
  for (auto& [id, j] : host.jobs) {
    if (j.get() != job && j->data_received && j->gang->key == host.data_key)
      ++claimed;
  }
  if (claimed >= host.data_held) return false;
  ++world->stats_.data_reused;
  return true;
}

void SimWorld::Runtime::Received(SimJob* job) {
  job->received = true;
  SimGang* g = job->gang.get();
  for (SimJob* m : g->members) {
    if (!m->received) return;
  }
  if (g->members.size() < g->size) return;
  // Lock-step: the gang takes as long as its slowest host, which runs its
  // members of the gang side by side (paper 002: max_q x_q w_q).
  std::map<uint32_t, Seconds> per_host;
  for (SimJob* m : g->members) {
    per_host[m->host] += world->work_->ExecTime(m->spec, m->host);
  }
  Seconds need = 0;
  for (auto& [h, t] : per_host) need = std::max(need, t);
  g->remaining = need;
  g->sized = true;
  Update(g);
}

void SimWorld::Runtime::DropTransfers(SimJob* job) {
  if (!link) return;
  if (job->data_transfer) link->Drop(job->data_transfer);
  job->data_transfer = 0;
  Host& host = hosts[job->host];
  if (host.program_transfer == 0) return;
  for (auto& [id, j] : host.jobs)
    if (j.get() != job) return;  // another job still waits for it
  link->Drop(host.program_transfer);
  host.program_transfer = 0;
}

void SimWorld::Runtime::Update(SimGang* g) {
  if (!g->sized) return;
  bool up = true;
  for (SimJob* m : g->members) up &= hosts[m->host].avail == SimAvail::kUp;
  Seconds now = clock->Now();
  if (!up && g->since >= 0) {
    g->remaining = std::max<Seconds>(0, g->remaining - (now - g->since));
    g->computed += now - g->since;
    g->since = -1;
    g->timer.reset();
  } else if (up && g->since < 0) {
    g->since = now;
    g->timer = clock->After(g->remaining, [this, g] {
      ++world->stats_.events;
      Complete(g);
    });
  }
}

void SimWorld::Runtime::Complete(SimGang* g) {
  Seconds now = clock->Now();
  g->computed += now - g->since;
  g->since = -1;
  // The gang outlives its members' removal until this returns.
  std::shared_ptr<SimGang> keep = g->members.front()->gang;
  for (SimJob* m : g->members) {
    Host& host = hosts[m->host];
    if (!g->key.empty() && host.data_key == g->key) {
      host.data_key.clear();  // the iteration is done: its data serves no more
      host.data_held = 0;
    }
    Exited ex;
    for (size_t i = 0; i < m->spec.params.size(); ++i) {
      const JobParam& p = m->spec.params[i];
      if (p.kind == JobParam::Kind::kFileIn ||
          p.kind == JobParam::Kind::kFileInOut) {
        if (!host.files.count(p.source)) {
          ex.code = 1;
          ex.error = "input " + p.source + " is not on sim host " +
                     world->hosts_[m->host].name;
        }
      }
    }
    if (ex.succeeded()) {
      for (size_t i = 0; i < m->spec.params.size(); ++i) {
        const JobParam& p = m->spec.params[i];
        if (p.kind != JobParam::Kind::kFileOut &&
            p.kind != JobParam::Kind::kFileInOut)
          continue;
        uint64_t bytes = world->work_->OutputBytes(m->spec, i);
        host.files[p.dest] = bytes;
        ex.bytes_out += bytes;
      }
    }
    ex.usage.user_cpu = g->computed;
    world->stats_.useful_cpu += g->computed;
    world->stats_.busy[m->host] += g->computed;
    ++world->stats_.jobs_done;
    if (world->stats_.record_jobs && ex.succeeded()) {
      world->stats_.jobs.push_back(
          {m->spec.operation, m->spec.task, m->host, m->started, now});
    }
    world->stats_.last_job_end = std::max(world->stats_.last_job_end, now);
    Report(m, std::move(ex));
    host.busy_cores -= std::max(1, m->spec.cores);
    host.jobs.erase(m->id);
  }
  g->members.clear();
  g->timer.reset();
}

void SimWorld::Runtime::Abort(SimGang* g, uint32_t failed_host,
                              const std::string& why, bool cancelled) {
  Seconds now = clock->Now();
  if (g->since >= 0) g->computed += now - g->since;
  g->since = -1;
  g->timer.reset();
  if (!g->key.empty()) {
    auto it = forming.find(g->key);
    if (it != forming.end() && it->second.get() == g) forming.erase(it);
  }
  std::shared_ptr<SimGang> keep =
      g->members.empty() ? nullptr : g->members.front()->gang;
  std::vector<SimJob*> members = std::move(g->members);
  g->members.clear();
  for (SimJob* m : members) {
    world->stats_.wasted_cpu += g->computed;
    m->queue_timer.reset();
    DropTransfers(m);
    if (!cancelled && m->host == failed_host) {
      ++world->stats_.jobs_failed;
      Report(m, HostFailed{why});
    } else {
      ++world->stats_.jobs_cancelled;
      Report(m, Cancelled{});
    }
    hosts[m->host].busy_cores -= std::max(1, m->spec.cores);
    hosts[m->host].jobs.erase(m->id);
  }
}

// --- Transfers ---

void SimWorld::Runtime::Transfer(uint32_t h, uint64_t bytes,
                                 std::function<void()> land,
                                 Adapter::StatusCallback done) {
  const SimHostSpec& spec = world->hosts_[h];
  Host& host = hosts[h];
  if (host.avail == SimAvail::kDown || !host.connected) {
    Later(0, [done = std::move(done), name = spec.name] {
      done(Status::Unavailable("sim host " + name + " is down"));
    });
    return;
  }
  Seconds t = spec.latency;
  if (spec.bandwidth > 0) t += static_cast<double>(bytes) / spec.bandwidth;
  uint64_t id = next_transfer++;
  ++world->stats_.transfers;
  world->stats_.bytes_moved += bytes;
  host.transfers[id].second = std::move(done);
  host.transfers[id].first =
      clock->After(t, [this, h, id, land = std::move(land)] {
        ++world->stats_.events;
        auto it = hosts[h].transfers.find(id);
        Adapter::StatusCallback cb = std::move(it->second.second);
        hosts[h].transfers.erase(it);
        land();
        cb(Status::Ok());
      });
}

void SimWorld::Runtime::FailTransfers(uint32_t h, const std::string& why) {
  auto transfers = std::move(hosts[h].transfers);
  hosts[h].transfers.clear();
  for (auto& [id, t] : transfers) {
    t.first.reset();
    Later(0, [cb = std::move(t.second), why] { cb(Status::Unavailable(why)); });
  }
}

// --- Traces ---

Status ParseAvailabilityTrace(std::string_view text, std::string_view name,
                              std::vector<SimHostSpec>* hosts) {
  std::istringstream in{std::string(text)};
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    auto hash = line.find('#');
    if (hash != std::string::npos) line.resize(hash);
    std::istringstream fields(line);
    std::string host_s, time_s, state_s, extra;
    if (!(fields >> host_s)) continue;
    auto where = std::string(name) + ":" + std::to_string(n) + ": ";
    if (!(fields >> time_s >> state_s) || (fields >> extra)) {
      return Status::InvalidArgument(where +
                                     "expected `HOST TIME STATE` (state "
                                     "up, reclaimed or down)");
    }
    char* end = nullptr;
    unsigned long h = std::strtoul(host_s.c_str(), &end, 10);
    if (*end || h >= hosts->size()) {
      return Status::InvalidArgument(where + "host '" + host_s +
                                     "' is not an index below " +
                                     std::to_string(hosts->size()));
    }
    double t = std::strtod(time_s.c_str(), &end);
    if (*end || !(t >= 0) || !std::isfinite(t)) {
      return Status::InvalidArgument(where + "time '" + time_s +
                                     "' is not a non-negative number");
    }
    SimAvail a;
    if (state_s == "up") {
      a = SimAvail::kUp;
    } else if (state_s == "reclaimed") {
      a = SimAvail::kReclaimed;
    } else if (state_s == "down") {
      a = SimAvail::kDown;
    } else {
      return Status::InvalidArgument(where + "state '" + state_s +
                                     "' is not up, reclaimed or down");
    }
    (*hosts)[h].trace.push_back({t, a});
  }
  for (SimHostSpec& h : *hosts) {
    std::stable_sort(h.trace.begin(), h.trace.end(),
                     [](auto& a, auto& b) { return a.first < b.first; });
  }
  return Status::Ok();
}

Status LoadAvailabilityTrace(const std::string& path,
                             std::vector<SimHostSpec>* hosts) {
  std::ifstream in(path);
  if (!in) {
    return Status::NotFound("cannot read the availability trace " + path);
  }
  std::stringstream ss;
  ss << in.rdbuf();
  return ParseAvailabilityTrace(ss.str(), path, hosts);
}

}  // namespace gs
