#include "adapters/batch/pilot_adapter.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>

#include "adapters/batch/batch_job_runner.h"
#include "adapters/batch/pilot_auth.h"
#include "adapters/batch/pilot_scaling.h"
#include "adapters/batch/pilot_token_file.h"
#include "adapters/ssh/shell_quote.h"
#include "adapters/transport/tcp_stream.h"

namespace gs {

namespace fs = std::filesystem;

namespace {

// Pilots that end before connecting, in a row, before the host gives up.
constexpr int kMaxFailedStarts = 3;
// Seconds Connect() waits for the other pilots once one serves.
constexpr Seconds kLatePilotWait = 5;

Status MakePrivateDir(const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return Status::IoError("cannot create " + dir + ": " + ec.message());
  fs::permissions(dir, fs::perms::owner_all, fs::perm_options::replace, ec);
  return Status::Ok();
}

std::string ThisHostName() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0) return "localhost";
  return name;
}

}  // namespace

PilotAdapter::PilotAdapter(boost::asio::io_context& io, Clock& clock,
                           BatchAdapterOptions options,
                           std::unique_ptr<BatchSystem> system)
    : BatchHostAdapter(io, clock, std::move(options), std::move(system)) {}

PilotAdapter::~PilotAdapter() {
  Shutdown();
  *alive_ = false;
}

Status PilotAdapter::Prepare() {
  if (prepared_) return Status::Ok();
  if (Status s = CheckBatchOptions(options()); !s.ok()) return s;
  script_dir_ = options().host.workdir + "/pilots";
  if (Status s = MakePrivateDir(options().host.workdir); !s.ok()) return s;
  if (Status s = MakePrivateDir(script_dir_); !s.ok()) return s;
  if (auto checked = CheckSystem(script_dir_); !checked.ok()) {
    return checked.status();
  }

  auto token = NewPilotToken();
  if (!token.ok()) return token.status();
  token_ = std::move(token).value();
  // A master killed by SIGKILL could not remove its own.
  RemoveStalePilotTokenFiles(script_dir_, ThisHostName());
  token_file_ =
      script_dir_ + "/" + PilotTokenFileName(ThisHostName(), ::getpid());
  if (Status s = WriteTokenFile(token_file_, token_); !s.ok()) return s;
  job_name_ = "gsrt-pilot-" + options().host.name + "-" + token_.substr(0, 8);

  const std::string& listen = options().host.batch.listen;
  auto address = ParseHostPort(listen.empty() ? "127.0.0.1" : listen, 0);
  if (!address.ok()) {
    return address.status().WithContext(options().where + Host() + ": listen");
  }
  PilotListenerOptions lo;
  lo.address = address->host;
  lo.port = address->port;
  lo.token = token_;
  std::shared_ptr<bool> alive = alive_;
  auto listener = PilotListener::Listen(
      io(), clock(), lo,
      [this, alive](std::string name, std::unique_ptr<ByteStream> stream) {
        if (*alive) OnPilot(std::move(name), std::move(stream));
      });
  if (!listener.ok()) {
    return listener.status().WithContext(options().where + Host());
  }
  listener_ = std::move(listener).value();
  std::string host = address->host;
  if (host == "0.0.0.0" || host == "::") host = ThisHostName();
  if (host.find(':') != std::string::npos) host = "[" + host + "]";
  connect_to_ = host + ":" + std::to_string(listener_->port());
  prepared_ = true;
  return Status::Ok();
}

Status PilotAdapter::SubmitPilot(int slots) {
  auto pilot = std::make_unique<Pilot>();
  pilot->name = options().host.name + "-p" + std::to_string(next_pilot_++);
  pilot->slots = std::max(0, slots);
  const std::string script = script_dir_ + "/" + pilot->name + ".sh";
  std::vector<std::string> argv = {
      options().agent_program,
      "--connect",
      connect_to_,
      "--token-file",
      token_file_,
      "--pilot",
      pilot->name,
      "--workdir",
      options().host.workdir,
      "--heartbeat",
      std::to_string(options().heartbeat),
      "--workers",
      std::string(WorkerModeName(options().workers))};
  // Without --slots the agent runs as many jobs as its allocation has CPUs.
  if (pilot->slots > 0) {
    argv.insert(argv.end(), {"--slots", std::to_string(pilot->slots)});
  }
  auto line = ShellCommandLine(argv);
  if (!line.ok()) return line.status().WithContext(Host());
  const std::string text = "#!/bin/sh\n# gsrt pilot " + pilot->name +
                           " (generated; the token is in a 0600 file)\n"
                           "exec " +
                           *line + "\n";
  if (Status s = WriteFileAtomically(script, text); !s.ok()) return s;
  ::chmod(script.c_str(), 0700);
  BatchSubmission job;
  job.name = job_name_;
  job.script = script;
  job.output = script_dir_ + "/" + pilot->name + ".out";
  auto id = commands().Submit(job);
  if (!id.ok()) return id.status();
  pilot->batch_id = *id;
  pilot->submitted = clock().Now();
  QueuedJob queued;  // recorded: a master started after a crash cancels it
  queued.batch_id = *id;
  queued.name = job_name_;
  queued.dir = script_dir_;
  Queued(std::move(queued));
  pilots_.push_back(std::move(pilot));
  return Status::Ok();
}

Status PilotAdapter::Connect() {
  if (shut_down_) return Status::FailedPrecondition(Host() + " was shut down");
  if (Status s = Prepare(); !s.ok()) return s;
  failed_starts_ = 0;
  const int want = std::max(1, options().host.batch.pilots);
  const int slots = std::max(1, options().host.slots);
  const bool sized = options().host.SlotsFromPilots();
  for (int i = AlivePilots(); i < want; ++i) {
    const int share = sized ? 0 : slots / want + (i < slots % want ? 1 : 0);
    if (Status s = SubmitPilot(share); !s.ok()) return s;
  }
  if (!tick_) ArmTick();
  const Seconds deadline = clock().Now() + options().pilot_start_timeout;
  auto ready = [&] {
    int n = 0;
    for (const auto& p : pilots_) n += p->state == PilotState::kReady;
    return n;
  };
  // Once one pilot serves, the others get a few seconds more: jobs can
  // start, and late pilots add their slots when they connect.
  Seconds first_ready = -1;
  while (ready() < want && failed_starts_ < kMaxFailedStarts &&
         clock().Now() < deadline) {
    if (ready() > 0 && first_ready < 0) first_ready = clock().Now();
    if (first_ready >= 0 && clock().Now() - first_ready > kLatePilotWait) break;
    io().restart();
    io().run_one_for(std::chrono::milliseconds(100));
  }
  if (ready() > 0) return Status::Ok();
  std::string state;
  for (const auto& p : pilots_) {
    if (p->state == PilotState::kQueued) {
      state = "pilot job " + p->batch_id + " is still queued";
    }
  }
  return Status::Unavailable(
      Host() + ": no pilot job connected back" +
      (failed_starts_ >= kMaxFailedStarts
           ? ": " + last_failure_
           : " within " +
                 std::to_string(
                     static_cast<int>(options().pilot_start_timeout)) +
                 " s" + (state.empty() ? "" : " (" + state + ")")) +
      ". Check that the nodes see " + options().agent_program +
      " and can reach " + connect_to_ + " (set `listen:`)");
}

void PilotAdapter::OnPilot(std::string name,
                           std::unique_ptr<ByteStream> stream) {
  Pilot* pilot = nullptr;
  for (auto& p : pilots_) {
    if (p->name == name && p->state == PilotState::kQueued) pilot = p.get();
  }
  if (pilot == nullptr || shut_down_) {
    stream->Close();  // a pilot given up on: its job was cancelled
    return;
  }
  pilot->state = PilotState::kConnecting;
  waits().Add(pilot->submitted, clock().Now());
  auto held = std::make_shared<std::unique_ptr<ByteStream>>(std::move(stream));
  ByteStreamFactory factory =
      [held]() -> StatusOr<std::unique_ptr<ByteStream>> {
    if (!*held) {
      return Status::Unavailable(
          "this pilot's connection is gone; a new pilot job replaces it");
    }
    return std::move(*held);
  };
  AgentAdapterOptions ao;
  ao.kind = std::string(kind());
  // Messages read "host 'H' pilot 'H-p0', batch job '123'".
  ao.host_name = options().host.name + "' pilot '" + pilot->name +
                 "', batch job '" + pilot->batch_id;
  ao.heartbeat_interval = options().heartbeat;
  ao.shares_master_files = options().host.shared_fs;
  pilot->agent =
      std::make_unique<AgentAdapter>(io(), clock(), std::move(factory), ao);
  std::shared_ptr<bool> alive = alive_;
  pilot->agent->ConnectAsync([this, alive, pilot](Status s) {
    if (*alive) OnPilotReady(*pilot, std::move(s));
  });
}

void PilotAdapter::OnPilotReady(Pilot& pilot, Status s) {
  if (pilot.state != PilotState::kConnecting) return;
  if (!s.ok()) {
    ++failed_starts_;
    last_failure_ = s.message();
    Retire(pilot, s.message());
    return;
  }
  pilot.state = PilotState::kReady;
  pilot.idle_since = clock().Now();
  failed_starts_ = 0;
  FinishWaiters(Status::Ok());
}

void PilotAdapter::Retire(Pilot& pilot, const std::string& why) {
  if (pilot.state == PilotState::kGone) return;
  pilot.state = PilotState::kGone;
  pilot.lost = true;
  if (pilot.agent) pilot.agent->Shutdown();
  // It may still run on a hung node: make sure it leaves the queue.
  (void)commands().Cancel({pilot.batch_id});
  std::fprintf(stderr, "gsrt: %s: pilot %s (batch job %s) retired: %s\n",
               Host().c_str(), pilot.name.c_str(), pilot.batch_id.c_str(),
               why.c_str());
}

void PilotAdapter::Maintain(bool list) {
  if (shut_down_ || !prepared_) return;
  std::optional<std::map<std::string, std::string>> listed;
  if (list) {
    auto l = commands().List(job_name_);
    if (l.ok()) listed = std::move(l).value();
  }
  for (auto& p : pilots_) {
    switch (p->state) {
      case PilotState::kReady:
        if (!p->agent->connected()) {
          Retire(*p, "lost: " + p->agent->lost_reason());
        }
        break;
      case PilotState::kQueued:
        if (!listed) break;
        if (listed->count(p->batch_id)) {
          p->missing = 0;
        } else if (++p->missing >= 2) {
          ++failed_starts_;
          auto out = ReadSmallFile(script_dir_ + "/" + p->name + ".out");
          last_failure_ = "pilot job " + p->batch_id +
                          " ended before connecting back" +
                          (out.ok() && !out->empty()
                               ? " (its output: " + FirstLines(*out, 3) + ")"
                               : "");
          Retire(*p, last_failure_);
        }
        break;
      default:
        break;
    }
  }
  if (failed_starts_ >= kMaxFailedStarts) {
    FinishWaiters(Status::Unavailable(Host() + ": " + last_failure_));
    return;
  }
  Scale();
}

bool PilotAdapter::scales() const {
  return options().host.batch.max_pilots > options().host.batch.pilots;
}

void PilotAdapter::Scale() {
  const BatchConfig& batch = options().host.batch;
  const Seconds now = clock().Now();
  PilotCensus census;
  census.waiting_tasks = backlog_;
  std::vector<Pilot*> serving;
  for (const auto& p : pilots_) {
    switch (p->state) {
      case PilotState::kQueued:
      case PilotState::kConnecting:
        ++census.pending;
        break;
      case PilotState::kReady:
        serving.push_back(p.get());
        census.idle_for.push_back(p->running > 0 ? -1 : now - p->idle_since);
        break;
      case PilotState::kGone:
        break;
    }
  }
  census.free_slots = FreeSlots();
  PilotLimits limits;
  limits.floor = std::max(1, batch.pilots);
  limits.max_pilots = std::max(limits.floor, batch.max_pilots);
  limits.max_jobs = batch.max_jobs;
  limits.linger = batch.pilot_linger;
  const PilotScaling decision = DecidePilots(census, limits);
  for (size_t i : decision.retire) {
    Release(*serving[i], census.idle_for[i]);
  }
  // The floor's pilots share `slots` when gsrt.yaml gives it; grown pilots
  // (only without `slots`) bring their allocation's CPUs.
  int slots_left = std::max(1, options().host.slots);
  for (const auto& p : pilots_) {
    if (p->state != PilotState::kGone) slots_left -= p->slots;
  }
  for (int i = 0; i < decision.submit; ++i) {
    const int share = options().host.SlotsFromPilots()
                          ? 0
                          : std::max(1, slots_left / (decision.submit - i));
    slots_left -= share;
    Status s = SubmitPilot(share);
    if (!s.ok()) {
      last_failure_ = s.message();
      FinishWaiters(s);
      break;
    }
  }
}

void PilotAdapter::Release(Pilot& pilot, Seconds idle) {
  if (pilot.state == PilotState::kGone) return;
  pilot.state = PilotState::kGone;
  if (pilot.agent) pilot.agent->Shutdown();  // the agent exits
  // And the batch job leaves the queue even if the agent is slow to.
  (void)commands().Cancel({pilot.batch_id});
  std::fprintf(stderr,
               "gsrt: %s: pilot %s (batch job %s) had no job for %.0f s: "
               "released\n",
               Host().c_str(), pilot.name.c_str(), pilot.batch_id.c_str(),
               idle);
}

void PilotAdapter::NoteBacklog(int tasks) {
  backlog_ = std::max(0, tasks);
  // Called under the engine's lock: the decision (and any sbatch) runs
  // after it, on the same thread.
  if (!scales() || scale_posted_ || shut_down_ || !prepared_) return;
  scale_posted_ = true;
  std::shared_ptr<bool> alive = alive_;
  boost::asio::post(io(), [this, alive] {
    if (!*alive) return;
    scale_posted_ = false;
    Maintain(/*list=*/false);
  });
}

void PilotAdapter::ArmTick() {
  std::shared_ptr<bool> alive = alive_;
  tick_ = clock().After(options().poll_interval, [this, alive] {
    if (!*alive || shut_down_) return;
    Maintain(/*list=*/true);
    ArmTick();
  });
}

void PilotAdapter::FinishWaiters(const Status& s) {
  if (waiters_.empty()) return;
  wait_deadline_.reset();
  auto waiters = std::move(waiters_);
  waiters_.clear();
  for (auto& w : waiters) {
    boost::asio::post(io(), [w = std::move(w), s] { w(s); });
  }
}

void PilotAdapter::Reconnect(std::function<void(Status)> done) {
  if (shut_down_) {
    return boost::asio::post(
        io(), [done] { done(Status::Cancelled("the host was shut down")); });
  }
  if (!prepared_) return done(Connect());
  failed_starts_ = 0;
  Maintain(/*list=*/false);
  if (connected()) {
    return boost::asio::post(io(), [done] { done(Status::Ok()); });
  }
  waiters_.push_back(std::move(done));
  if (!wait_deadline_) {
    std::shared_ptr<bool> alive = alive_;
    wait_deadline_ =
        clock().After(options().pilot_start_timeout, [this, alive] {
          if (!*alive) return;
          FinishWaiters(Status::Unavailable(
              Host() + ": no new pilot job connected back within " +
              std::to_string(static_cast<int>(options().pilot_start_timeout)) +
              " s"));
        });
  }
}

int PilotAdapter::AlivePilots() const {
  int n = 0;
  for (const auto& p : pilots_) n += p->state != PilotState::kGone;
  return n;
}

PilotAdapter::Pilot* PilotAdapter::ReadyPilot() {
  Pilot* best = nullptr;
  for (auto& p : pilots_) {
    if (p->state != PilotState::kReady || !p->agent->connected()) continue;
    if (best == nullptr || p->agent->FreeSlots() > best->agent->FreeSlots()) {
      best = p.get();
    }
  }
  return best;
}

int PilotAdapter::FreeSlots() const {
  int n = 0;
  for (const auto& p : pilots_) {
    if (p->state == PilotState::kReady) {
      n += p->agent->core_capacity() - p->cores;
    }
  }
  return std::max(0, n);
}

int PilotAdapter::core_capacity() const {
  int n = 0;
  for (const auto& p : pilots_) {
    if (p->state == PilotState::kReady) n += p->agent->core_capacity();
  }
  return n;
}

uint64_t PilotAdapter::memory_capacity() const {
  uint64_t largest = 0;
  for (const auto& p : pilots_) {
    if (p->state == PilotState::kReady) {
      largest = std::max(largest, p->agent->memory_capacity());
    }
  }
  return largest;
}

bool PilotAdapter::connected() const {
  for (const auto& p : pilots_) {
    if (p->state == PilotState::kReady && p->agent->connected()) return true;
  }
  return false;
}

PilotAdapter::Pilot* PilotAdapter::PilotForJob() {
  if (!scales()) return ReadyPilot();
  for (auto& p : pilots_) {
    if (p->state == PilotState::kReady && p->agent->connected() &&
        p->agent->FreeSlots() > 0) {
      return p.get();
    }
  }
  return ReadyPilot();
}

void PilotAdapter::Submit(JobSpec spec, DoneCallback done) {
  Pilot* pilot = PilotForJob();
  if (pilot == nullptr || shut_down_) {
    JobReport report;
    report.id = spec.id;
    report.outcome = HostFailed{Host() + " has no connected pilot"};
    report.submitted = report.started = report.ended = clock().Now();
    boost::asio::post(io(), [done = std::move(done), report] { done(report); });
    return;
  }
  const JobId id = spec.id;
  job_pilot_[id] = pilot;
  const int cores = std::max(1, spec.cores);
  ++pilot->running;
  pilot->cores += cores;
  std::shared_ptr<bool> alive = alive_;
  pilot->agent->Submit(std::move(spec), [this, alive, id, pilot, cores,
                                         done = std::move(done)](JobReport r) {
    if (*alive) {
      job_pilot_.erase(id);
      pilot->cores -= cores;
      // Pilots are kept (state kGone) until the adapter goes.
      if (--pilot->running == 0) pilot->idle_since = clock().Now();
    }
    done(std::move(r));
  });
}

void PilotAdapter::Cancel(JobId id) {
  auto it = job_pilot_.find(id);
  if (it != job_pilot_.end() && it->second->agent)
    it->second->agent->Cancel(id);
}

void PilotAdapter::Shutdown() {
  if (shut_down_) return;
  shut_down_ = true;
  tick_.reset();
  wait_deadline_.reset();
  std::vector<std::string> ids;
  for (auto& p : pilots_) {
    if (p->agent) p->agent->Shutdown();
    if (p->state != PilotState::kGone) ids.push_back(p->batch_id);
    p->state = PilotState::kGone;
  }
  // Nothing of the run stays in the queue, started or not.
  if (!ids.empty()) (void)commands().Cancel(ids);
  if (listener_) listener_->Close();
  if (!token_file_.empty()) ::unlink(token_file_.c_str());
  // The scripts and outputs of pilots that ended well; a lost pilot's
  // output stays (it may say why).
  for (const auto& p : pilots_) {
    if (p->lost) continue;
    ::unlink((script_dir_ + "/" + p->name + ".sh").c_str());
    ::unlink((script_dir_ + "/" + p->name + ".out").c_str());
  }
  FinishWaiters(Status::Cancelled(Host() + " was shut down"));
}

std::vector<std::string> PilotAdapter::PilotJobIds() const {
  std::vector<std::string> ids;
  for (const auto& p : pilots_) {
    if (p->state != PilotState::kGone) ids.push_back(p->batch_id);
  }
  return ids;
}

PilotAdapter::StatusCallback PilotAdapter::Busy(Pilot& pilot,
                                                StatusCallback done) {
  ++pilot.running;
  std::shared_ptr<bool> alive = alive_;
  Pilot* p = &pilot;  // pilots are kept until the adapter goes
  return [this, alive, p, done = std::move(done)](Status s) {
    if (*alive && --p->running == 0) p->idle_since = clock().Now();
    done(std::move(s));
  };
}

void PilotAdapter::Put(std::string master_path, std::string host_path,
                       StatusCallback done) {
  Pilot* p = ReadyPilot();
  if (p == nullptr) return done(Status::Unavailable(Host() + ": no pilot"));
  p->agent->Put(std::move(master_path), std::move(host_path),
                Busy(*p, std::move(done)));
}

void PilotAdapter::Get(std::string host_path, std::string master_path,
                       StatusCallback done) {
  Pilot* p = ReadyPilot();
  if (p == nullptr) return done(Status::Unavailable(Host() + ": no pilot"));
  p->agent->Get(std::move(host_path), std::move(master_path),
                Busy(*p, std::move(done)));
}

void PilotAdapter::Remove(std::string host_path) {
  if (Pilot* p = ReadyPilot()) p->agent->Remove(std::move(host_path));
}

void PilotAdapter::Probe(ProbeCallback done) {
  Pilot* p = ReadyPilot();
  if (p == nullptr) return done(Status::Unavailable(Host() + ": no pilot"));
  const Seconds wait = waits().RecentMean();
  p->agent->Probe([done = std::move(done), wait](StatusOr<HostProbe> probe) {
    if (probe.ok() && wait >= 0) probe->queue_wait = wait;
    done(std::move(probe));
  });
}

}  // namespace gs
