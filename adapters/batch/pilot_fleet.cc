#include "adapters/batch/pilot_fleet.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <charconv>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <utility>

#include "adapters/agent/agent_args.h"
#include "adapters/batch/node/batch_job_runner.h"
#include "adapters/batch/node/pilot_auth.h"
#include "adapters/batch/pilot_record.h"
#include "adapters/batch/pilot_scaling.h"
#include "adapters/batch/pilot_token_file.h"
#include "adapters/host_environment.h"
#include "adapters/transport/tcp_stream.h"
#include "runtime/base/shell_quote.h"

namespace gs {

namespace fs = std::filesystem;

namespace {

// Pilots that end before connecting, in a row, before the host gives up.
constexpr int kMaxFailedStarts = 3;
// Seconds Connect() waits for the other pilots once one serves.
constexpr Seconds kLatePilotWait = 5;

// One past the largest N of the files HOST-pN.* in `dir` (0 when none).
int NextPilotNumber(const std::string& dir, const std::string& host) {
  const std::string prefix = host + "-p";
  int next = 0;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (!name.starts_with(prefix)) continue;
    int n = -1;
    const char* begin = name.data() + prefix.size();
    const char* end = name.data() + name.size();
    auto [stop, err] = std::from_chars(begin, end, n);
    if (err == std::errc() && stop != begin && stop < end && *stop == '.' &&
        n >= 0) {
      next = std::max(next, n + 1);
    }
  }
  return next;
}

std::string ThisHostName() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0) return "localhost";
  return name;
}

}  // namespace

PilotFleet::PilotFleet(PilotFleetSetup setup)
    : setup_(std::move(setup)),
      script_dir_(options().host.workdir + "/pilots") {}

PilotFleet::~PilotFleet() {
  Shutdown();
  // The engine stops its loop right after Shutdown: the wait ends here.
  if (unlisted_) unlisted_->FinishOnOwnLoop();
  *alive_ = false;
}

void PilotFleet::set_messages(MessageSink* sink) {
  messages_ = sink ? sink : &StderrMessages();
  for (auto& p : pilots_) {
    if (p->agent) p->agent->SetMessages(messages_);
  }
}

Status PilotFleet::Prepare() {
  if (prepared_) return Status::Ok();
  auto token = NewPilotToken();
  if (!token.ok()) return token.status();
  token_ = std::move(token).value();
  job_name_ = "gsrt-pilot-" + options().host.name + "-" + token_.substr(0, 8);
  if (Status s = Listen(); !s.ok()) return s;
  // The token file names this master's address, so that a master started
  // after a crash can point the pilots elsewhere by rewriting it.
  const PilotRendezvous here{token_, connect_to_};
  if (reattaches()) {
    // A dead master's pilots may still run and wait for a master.
    taken_over_files_ =
        TakeOverStalePilotTokenFiles(script_dir_, ThisHostName(), here);
    TakeOverQueuedPilots();
  } else {
    RemoveStalePilotTokenFiles(script_dir_, ThisHostName());
  }
  token_file_ =
      script_dir_ + "/" + PilotTokenFileName(ThisHostName(), ::getpid());
  if (Status s = WritePilotRendezvous(token_file_, here); !s.ok()) return s;
  // Pilots of an earlier master may still run from NAME-pN.sh: new names
  // go on after theirs, so no script or output is shared.
  next_pilot_ = NextPilotNumber(script_dir_, options().host.name);
  prepared_ = true;
  return Status::Ok();
}

Status PilotFleet::Listen() {
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
  return Status::Ok();
}

Status PilotFleet::SubmitPilot(int slots) {
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
  if (reattaches()) {
    argv.insert(argv.end(),
                {"--reattach", std::to_string(static_cast<int>(std::ceil(
                                   options().host.batch.pilot_reattach)))});
  }
  // Without --slots the agent runs as many jobs as its allocation has CPUs.
  if (pilot->slots > 0) {
    argv.insert(argv.end(), {"--slots", std::to_string(pilot->slots)});
  }
  for (std::string& word : LauncherArgs(options().host.launcher)) {
    argv.push_back(std::move(word));
  }
  auto line = ShellCommandLine(InHostEnvironment(
      options().host.name, options().host.Environment(), std::move(argv)));
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
  pilot->job_name = job_name_;
  pilot->submitted = clock().Now();
  // For the master started after a crash of this one: without it, a pilot
  // still queued then is cancelled and replaced, losing its place.
  if (Status s = WritePilotRecord(script_dir_, {pilot->name, *id, job_name_});
      !s.ok()) {
    Sayf(messages(), MessageKind::kWarning, "gsrt: %s: warning: %s\n",
         Host().c_str(), s.message().c_str());
  }
  QueuedJob queued;  // recorded: a master started after a crash takes it
  queued.batch_id = *id;
  queued.name = job_name_;
  queued.dir = script_dir_;
  setup_.queued(std::move(queued));
  pilots_.push_back(std::move(pilot));
  return Status::Ok();
}

Status PilotFleet::Connect() {
  if (shut_down_) return Status::FailedPrecondition(Host() + " was shut down");
  failed_starts_ = 0;
  const int want = std::max(1, options().host.batch.pilots);
  if (!taken_over_files_.empty()) {
    // Those found running in the queue, else (no records) up to `want`.
    AwaitReturningPilots(
        taken_over_running_ >= 0 ? std::min(want, taken_over_running_) : want);
  }
  const int slots = std::max(1, options().host.slots);
  const bool sized = options().host.SlotsFromPilots();
  for (int i = AlivePilots(); i < want; ++i) {
    const int share = sized ? 0 : slots / want + (i < slots % want ? 1 : 0);
    if (Status s = SubmitPilot(share); !s.ok()) return s;
  }
  if (!tick_) ArmTick();
  const Seconds deadline = clock().Now() + options().pilot_start_timeout;
  // Once one pilot serves, the others get a few seconds more: jobs can
  // start, and late pilots add their slots when they connect.
  Seconds first_ready = -1;
  while (ReadyPilots() < want && failed_starts_ < kMaxFailedStarts &&
         clock().Now() < deadline) {
    if (ReadyPilots() > 0 && first_ready < 0) first_ready = clock().Now();
    if (first_ready >= 0 && clock().Now() - first_ready > kLatePilotWait) break;
    io().restart();
    io().run_one_for(std::chrono::milliseconds(100));
  }
  if (ReadyPilots() > 0) return Status::Ok();
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

void PilotFleet::TakeOverQueuedPilots() {
  std::vector<PilotRecord> records =
      PilotsReadingTokenFiles(script_dir_, taken_over_files_);
  if (records.empty()) return;
  taken_over_running_ = 0;
  std::vector<std::string> names;
  for (const PilotRecord& r : records) names.push_back(r.job_name);
  const QueueListings listed = ListByJobName(commands(), names);
  for (const auto& [name, jobs] : listed) {
    if (jobs.ok()) continue;
    // Not taken: Forget cancels them, and new pilots replace them.
    Sayf(messages(), MessageKind::kWarning,
         "gsrt: %s: cannot list the pilots of an interrupted "
         "master: %s\n",
         Host().c_str(), jobs.status().message().c_str());
  }
  for (const PilotRecord& r : records) {
    const auto& jobs = listed.at(r.job_name);
    if (!jobs.ok()) continue;
    auto it = jobs->find(r.batch_id);
    if (it == jobs->end()) {
      // Ended meanwhile: its output may say why.
      RemovePilotFiles(script_dir_, r.name, options().host.workdir);
      continue;
    }
    const std::string& state = it->second;
    // Slurm's RUNNING, CONFIGURING, COMPLETING; PBS's R, E.
    const bool running = state == "RUNNING" || state == "CONFIGURING" ||
                         state == "COMPLETING" || state == "R" || state == "E";
    taken_over_running_ += running;
    auto pilot = std::make_unique<Pilot>();
    pilot->name = r.name;
    pilot->batch_id = r.batch_id;
    pilot->job_name = r.job_name;
    pilot->returned = true;
    pilot->was_queued = !running;
    pilot->submitted = clock().Now();
    pilots_.push_back(std::move(pilot));
    QueuedJob queued;  // recorded again: a later crash finds it too
    queued.batch_id = r.batch_id;
    queued.name = r.job_name;
    queued.dir = script_dir_;
    queued.adopted = true;
    setup_.queued(std::move(queued));
    Sayf(messages(), MessageKind::kHostEvent,
         "gsrt: %s: pilot %s (batch job %s) of an interrupted master "
         "is %s: taken over%s\n",
         Host().c_str(), r.name.c_str(), r.batch_id.c_str(),
         running ? "running" : "still queued",
         running ? "" : ", it serves this run when it starts");
  }
}

void PilotFleet::AwaitReturningPilots(int want) {
  // They retry every second once their master is lost. A pilot still
  // queued is not waited for: it was taken over if recorded, else it is
  // replaced (Forget cancels it).
  if (want <= 0) return;
  constexpr Seconds kReturnWait = 10;
  const Seconds deadline =
      clock().Now() + std::min(kReturnWait, options().pilot_start_timeout);
  Sayf(messages(), MessageKind::kInfo,
       "gsrt: %s: waiting up to %.0f s for the pilots of an "
       "interrupted master to come back\n",
       Host().c_str(), deadline - clock().Now());
  auto back = [&] {
    int n = 0;
    for (const auto& p : pilots_)
      n += p->returned && p->state == PilotState::kReady;
    return n;
  };
  while (back() < want && clock().Now() < deadline) {
    io().restart();
    io().run_one_for(std::chrono::milliseconds(100));
  }
}

Pilot* PilotFleet::AddReturned(const std::string& name,
                               const std::string& batch_id) {
  for (auto& p : pilots_) {
    if (p->batch_id == batch_id) return nullptr;  // known: not a new one
  }
  auto pilot = std::make_unique<Pilot>();
  pilot->name = name + "@" + batch_id;
  pilot->batch_id = batch_id;
  pilot->returned = true;
  pilot->submitted = clock().Now();
  pilots_.push_back(std::move(pilot));
  return pilots_.back().get();
}

void PilotFleet::OnPilot(std::string greeted,
                         std::unique_ptr<ByteStream> stream) {
  const PilotName name = SplitPilotName(greeted);
  Pilot* pilot = nullptr;
  // By name: this master's names never repeat an earlier master's
  // (NextPilotNumber), and the queue's id may be spelled otherwise.
  for (auto& p : pilots_) {
    if (p->name == name.pilot && p->state == PilotState::kQueued) {
      pilot = p.get();
    }
  }
  // Not one of ours: a pilot of an interrupted master of this work dir
  // (only it has the token: we rewrote its file) coming back.
  if (pilot == nullptr && !shut_down_ && reattaches() &&
      !name.batch_id.empty()) {
    pilot = AddReturned(name.pilot, name.batch_id);
  }
  if (pilot == nullptr || shut_down_) {
    stream->Close();  // a pilot given up on: its job was cancelled
    return;
  }
  pilot->state = PilotState::kConnecting;
  if (!pilot->returned)
    setup_.waits->Add(pilot->submitted, clock().Now(),
                      BatchJobShape(options().host.batch));
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
  ao.kind = setup_.kind;
  // Messages read "host 'H' pilot 'H-p0', batch job '123'".
  ao.host_name = options().host.name + "' pilot '" + pilot->name +
                 "', batch job '" + pilot->batch_id;
  ao.heartbeat_interval = options().heartbeat;
  ao.shares_master_files = options().host.shared_fs;
  ao.fetch_logs_to = options().fetch_logs_to;
  ao.logs_host = options().host.name;
  pilot->agent =
      std::make_unique<AgentAdapter>(io(), clock(), std::move(factory), ao);
  pilot->agent->SetMessages(messages_);
  std::shared_ptr<bool> alive = alive_;
  pilot->agent->ConnectAsync([this, alive, pilot](Status s) {
    if (*alive) OnPilotReady(*pilot, std::move(s));
  });
}

void PilotFleet::OnPilotReady(Pilot& pilot, Status s) {
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
  if (pilot.returned) {
    QueuedJob queued;  // recorded again: a later crash finds it too
    queued.batch_id = pilot.batch_id;
    queued.name = job_name_;
    queued.dir = script_dir_;
    queued.adopted = true;
    setup_.queued(std::move(queued));
    if (pilot.was_queued) {
      Sayf(messages(), MessageKind::kHostEvent,
           "gsrt: %s: pilot %s of an interrupted master, queued when "
           "this one started, serves it now\n",
           Host().c_str(), pilot.name.c_str());
    } else {
      Sayf(messages(), MessageKind::kHostEvent,
           "gsrt: %s: pilot %s of an interrupted master came back "
           "holding %zu job(s)\n",
           Host().c_str(), pilot.name.c_str(), pilot.agent->held_jobs().size());
    }
  }
  FinishWaiters(Status::Ok());
}

void PilotFleet::Retire(Pilot& pilot, const std::string& why) {
  if (pilot.state == PilotState::kGone) return;
  pilot.state = PilotState::kGone;
  pilot.lost = true;
  if (pilot.agent) pilot.agent->Shutdown();
  // It may still run on a hung node: make sure it leaves the queue.
  (void)commands().Cancel({pilot.batch_id});
  Sayf(messages(), MessageKind::kHostEvent,
       "gsrt: %s: pilot %s (batch job %s) retired: %s\n", Host().c_str(),
       pilot.name.c_str(), pilot.batch_id.c_str(), why.c_str());
}

void PilotFleet::Maintain(bool list) {
  if (shut_down_ || !prepared_) return;
  // By job name: a dead master's pilots taken over keep their names.
  QueueListings listings;
  if (list) {
    std::vector<std::string> queued;
    for (const auto& p : pilots_) {
      if (p->state == PilotState::kQueued) queued.push_back(p->job_name);
    }
    listings = ListByJobName(commands(), queued);
  }
  for (auto& p : pilots_) {
    switch (p->state) {
      case PilotState::kReady:
        if (!p->agent->connected()) {
          Retire(*p, "lost: " + p->agent->lost_reason());
        }
        break;
      case PilotState::kQueued: {
        auto listed = listings.find(p->job_name);
        if (listed == listings.end() || !listed->second.ok()) break;
        if (listed->second->count(p->batch_id)) {
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
      }
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

bool PilotFleet::scales() const {
  return options().host.batch.max_pilots > options().host.batch.pilots;
}

void PilotFleet::Scale() {
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
  census.free_slots = std::max(
      0, FreeCores() - (setup_.unsent_cores ? setup_.unsent_cores() : 0));
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

void PilotFleet::Release(Pilot& pilot, Seconds idle) {
  if (pilot.state == PilotState::kGone) return;
  pilot.state = PilotState::kGone;
  if (pilot.agent) pilot.agent->Shutdown();  // the agent exits
  // And the batch job leaves the queue even if the agent is slow to.
  (void)commands().Cancel({pilot.batch_id});
  Sayf(messages(), MessageKind::kInfo,
       "gsrt: %s: pilot %s (batch job %s) had no job for %.0f s: "
       "released\n",
       Host().c_str(), pilot.name.c_str(), pilot.batch_id.c_str(), idle);
}

void PilotFleet::NoteBacklog(int tasks) {
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

void PilotFleet::ArmTick() {
  std::shared_ptr<bool> alive = alive_;
  tick_ = clock().After(options().poll_interval, [this, alive] {
    if (!*alive || shut_down_) return;
    Maintain(/*list=*/true);
    ArmTick();
  });
}

void PilotFleet::FinishWaiters(const Status& s) {
  if (waiters_.empty()) return;
  wait_deadline_.reset();
  auto waiters = std::move(waiters_);
  waiters_.clear();
  for (auto& w : waiters) {
    boost::asio::post(io(), [w = std::move(w), s] { w(s); });
  }
}

void PilotFleet::Reconnect(std::function<void(Status)> done) {
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

int PilotFleet::AlivePilots() const {
  int n = 0;
  for (const auto& p : pilots_) n += p->state != PilotState::kGone;
  return n;
}

int PilotFleet::ReadyPilots() const {
  int n = 0;
  for (const auto& p : pilots_) n += p->state == PilotState::kReady;
  return n;
}

Pilot* PilotFleet::ReadyPilot(const Taken* taken) {
  Pilot* best = nullptr;
  int best_free = 0;
  for (auto& p : pilots_) {
    if (p->state != PilotState::kReady || !p->agent->connected()) continue;
    const int free = FreeOf(*p, taken);
    if (best == nullptr || free > best_free) {
      best = p.get();
      best_free = free;
    }
  }
  return best;
}

int PilotFleet::FreeOf(const Pilot& pilot, const Taken* taken) {
  int free = pilot.agent->FreeSlots();
  if (taken != nullptr) {
    if (auto it = taken->find(&pilot); it != taken->end()) {
      free -= it->second.cores;
    }
  }
  return free;
}

int PilotFleet::FreeGpusOf(const Pilot& pilot, const Taken* taken) {
  int free = pilot.agent->gpu_capacity() - pilot.gpus;
  if (taken != nullptr) {
    if (auto it = taken->find(&pilot); it != taken->end()) {
      free -= it->second.gpus;
    }
  }
  return free;
}

Pilot* PilotFleet::PilotForJob(const Taken* taken, int gpus) {
  if (gpus > 0) {
    Pilot* best = nullptr;
    for (auto& p : pilots_) {
      if (p->state != PilotState::kReady || !p->agent->connected()) continue;
      if (best == nullptr || FreeGpusOf(*p, taken) > FreeGpusOf(*best, taken)) {
        best = p.get();
      }
    }
    return best;
  }
  if (!scales()) return ReadyPilot(taken);
  for (auto& p : pilots_) {
    if (p->state == PilotState::kReady && p->agent->connected() &&
        FreeOf(*p, taken) > 0) {
      return p.get();
    }
  }
  return ReadyPilot(taken);
}

Pilot* PilotFleet::Returned(const std::string& batch_id, bool serving) {
  Pilot* pilot = nullptr;
  for (auto& p : pilots_) {
    if (!p->returned || p->batch_id != batch_id) continue;
    if (serving ? p->state == PilotState::kReady && p->agent->connected()
                : p->state != PilotState::kGone) {
      pilot = p.get();
    }
  }
  return pilot;
}

void PilotFleet::WorkStarted(Pilot& pilot, int cores, int gpus) {
  ++pilot.running;
  pilot.cores += cores;
  pilot.gpus += gpus;
}

void PilotFleet::WorkEnded(Pilot& pilot, int cores, int gpus) {
  pilot.cores -= cores;
  pilot.gpus -= gpus;
  if (--pilot.running == 0) pilot.idle_since = clock().Now();
}

int PilotFleet::FreeCores() const {
  int n = 0;
  for (const auto& p : pilots_) {
    if (p->state == PilotState::kReady) {
      n += p->agent->core_capacity() - p->cores;
    }
  }
  return n;
}

int PilotFleet::core_capacity() const {
  int n = 0;
  for (const auto& p : pilots_) {
    if (p->state == PilotState::kReady) n += p->agent->core_capacity();
  }
  return n;
}

int PilotFleet::gpu_capacity() const {
  int n = 0;
  for (const auto& p : pilots_) {
    if (p->state == PilotState::kReady) n += p->agent->gpu_capacity();
  }
  return n;
}

uint64_t PilotFleet::memory_capacity() const {
  uint64_t largest = 0;
  for (const auto& p : pilots_) {
    if (p->state == PilotState::kReady) {
      largest = std::max(largest, p->agent->memory_capacity());
    }
  }
  return largest;
}

bool PilotFleet::connected() const {
  for (const auto& p : pilots_) {
    if (p->state == PilotState::kReady && p->agent->connected()) return true;
  }
  return false;
}

std::vector<std::string> PilotFleet::PilotJobIds() const {
  std::vector<std::string> ids;
  for (const auto& p : pilots_) {
    if (p->state != PilotState::kGone) ids.push_back(p->batch_id);
  }
  return ids;
}

void PilotFleet::Shutdown() {
  if (shut_down_) return;
  shut_down_ = true;
  tick_.reset();
  wait_deadline_.reset();
  std::vector<std::string> ids;
  std::vector<const Pilot*> started;
  std::vector<const Pilot*> unstarted;  // queued or starting when cancelled
  std::vector<UnlistedWait::Job> leaving;
  for (auto& p : pilots_) {
    if (p->agent) p->agent->Shutdown();
    if (p->state != PilotState::kGone) ids.push_back(p->batch_id);
    if (p->state == PilotState::kQueued) {
      unstarted.push_back(p.get());
      leaving.push_back({p->batch_id, p->job_name});
    } else {
      started.push_back(p.get());
    }
    p->state = PilotState::kGone;
  }
  // Nothing of the run stays in the queue, started or not.
  if (!ids.empty()) (void)commands().Cancel(ids);
  if (listener_) listener_->Close();
  if (!token_file_.empty()) ::unlink(token_file_.c_str());
  for (const std::string& f : taken_over_files_) ::unlink(f.c_str());
  // The scripts and outputs of pilots; a lost pilot's output is kept in
  // failed/batch/ (it may say why).
  RemoveFiles(started);
  FinishWaiters(Status::Cancelled(Host() + " was shut down"));
  if (unstarted.empty()) return;
  BatchCommands* commands = setup_.commands;
  unlisted_ = std::make_unique<UnlistedWait>(
      clock(),
      [commands](const std::vector<std::string>& names) {
        return ListByJobName(*commands, names);
      },
      std::move(leaving));
  std::shared_ptr<bool> alive = alive_;
  unlisted_->Start([this, alive, unstarted] {
    if (*alive) RemoveFiles(unstarted);
  });
}

void PilotFleet::RemoveFiles(const std::vector<const Pilot*>& pilots) {
  for (const Pilot* p : pilots) {
    // A pilot come back is "NAME@BATCHID"; its files are NAME's.
    RemovePilotFiles(script_dir_, SplitPilotName(p->name).pilot,
                     p->lost ? options().host.workdir : std::string());
  }
}

}  // namespace gs
