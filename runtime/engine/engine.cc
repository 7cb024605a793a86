// The engine's life: Start (the policy, the work dir, the hosts, the
// thread), submission and the master's waits, and the end on the engine
// thread. What happens to a job's outcome is in engine_outcome.cc, the
// booking of a round's placements in engine_schedule.cc, the staging of a
// job's inputs in engine_data.cc; the collaborators own the rest
// (docs/design.md, "The engine's objects").
#include "runtime/engine/engine.h"

#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <memory>
#include <new>
#include <type_traits>

#include "runtime/engine/engine_hosts.h"
#include "runtime/engine/job_builder.h"
#include "runtime/engine/parallel_for.h"
#include "runtime/engine/result_cache.h"
#include "runtime/engine/resume_journal.h"
#include "runtime/engine/start_watch.h"
#include "runtime/history/history.h"
#include "runtime/sched/policies_ft.h"
#include "runtime/sched/policies_grank.h"
#include "runtime/sched/policies_volatile.h"

namespace gs {

namespace {

// The run's policy as the options name it (or the tests' and the
// simulator's hooks make it). A volatile policy learns availability from
// what this run sees (the model is set on `hosts`) unless the caller gives
// it a model of its own.
StatusOr<std::unique_ptr<Policy>> MakeRunPolicy(const EngineOptions& options,
                                                HostSet& hosts) {
  auto policy = options.hooks.make_policy ? MakePolicy("mct")
                                          : MakePolicy(options.policy);
  if (!policy.ok()) return policy.status();
  if (options.policy == "grank") {
    RankOptions rank;
    rank.alpha = options.rank.alpha;
    rank.beta = options.rank.beta;
    rank.mu = options.rank.mu;
    rank.gamma = options.rank.gamma;
    *policy = MakeGrankPolicy(rank);
  }
  if (options.hooks.make_policy) *policy = options.hooks.make_policy();
  auto availability = std::make_unique<LearnedAvailability>(1.0);
  AttachVolatileHosts(**policy, availability.get());
  if (options.hooks.configure_policy) options.hooks.configure_policy(**policy);
  if (AttachedVolatileHosts(**policy) == availability.get()) {
    hosts.set_availability(std::move(availability));
  }
  return policy;
}

// Hands `adapter` the engine's sink and `watch`'s phases of `host`.
void WatchStart(Adapter& adapter, MessageSink* sink, StartWatch& watch,
                size_t host) {
  adapter.SetMessages(sink);
  adapter.SetStartPhases(
      [&watch, host](StartPhase phase) { watch.Phase(host, phase); });
}

}  // namespace

Engine::Engine(EngineOptions options)
    : options_(std::move(options)),
      program_(options_.cwd),
      console_(options_.messages, options_.quiet),
      waits_(console_.progress()),
      loop_(options_.hooks.virtual_time, mu_, waits_.gate(),
            console_.messages()),
      work_dir_(options_.work_dir,
                options_.hooks.file_system ? *options_.hooks.file_system
                                           : RealFileSystem(),
                console_.messages()),
      recorder_(program_.graph, program_.ops, console_.messages()),
      hosts_(options_.rtt_bound),
      sweeper_(HostSweeper::OwnerOf(options_.work_dir),
               options_.hooks.virtual_time, hosts_, mu_, stats_,
               console_.messages(), std::make_unique<SweepLink>(this)),
      mover_(mu_, work_dir_.fs(), options_.work_dir, program_.files,
             program_.graph, hosts_, recorder_,
             std::make_unique<DataMoveLink>(this)),
      naming_(options_.cwd, program_.files, program_.graph, program_.ops,
              mover_.places()),
      master_files_(options_.work_dir, work_dir_.fs(), program_.files,
                    program_.graph, mover_.places(), hosts_, naming_, stats_,
                    std::make_unique<FilesLink>(this)),
      rewinder_(Rewinder::ParseMode(options_.hooks.rewind)
                    .value_or(Rewinder::Mode::kGtpCR),
                program_.graph, program_.files, mover_.places(), stats_,
                console_.messages(), std::make_unique<RewindLink>(this)),
      dispatcher_(options_.replication, program_.graph, program_.ops, hosts_,
                  jobs_, mover_.places(), std::make_unique<DispatchLink>(this)),
      stall_(options_.stall_timeout, options_.hooks.virtual_time,
             options_.policy, mu_, stats_, console_.messages(),
             std::make_unique<StallLink>(this)),
      monitor_(options_.reconnect_backoff, options_.reconnect_backoff_max, mu_,
               loop_, hosts_, sweeper_, recorder_, stats_, console_.messages(),
               std::make_unique<MonitorLink>(this)) {}

Engine::~Engine() {
  if (loop_.running()) {
    {
      MutexLock lock(&mu_);
      waits_.gate().MasterLeaves();
    }
    loop_.Stop();
    loop_.Join();
    // A master gone without GS_Off (tests kill it so) leaves what it had
    // recorded, as the periodic flush would have; the thread is gone.
    RecordPending();
  }
}

Status Engine::Start(std::vector<HostSetup> hosts) {
  auto policy = MakeRunPolicy(options_, hosts_);
  if (!policy.ok()) return policy.status();
  {
    MutexLock lock(&mu_);  // free: the engine thread is not started yet
    dispatcher_.SetPolicy(std::move(policy).value());
  }
  if (!Rewinder::ParseMode(options_.hooks.rewind)) {
    return Status::InvalidArgument("unknown rewinding mode '" +
                                   options_.hooks.rewind +
                                   "'; known: gtp-c-r, gtp-r, restart");
  }
  // Before anything under work_dir is touched.
  if (Status s = work_dir_.Prepare(); !s.ok()) return s;
  loop_.Make();
  recorder_.set_clock(&loop_.clock());
  hosts_.set_clock(&loop_.clock());
  sweeper_.set_clock(&loop_.clock());
  mover_.set_loop(&loop_.io(), &loop_.clock());
  std::vector<std::string> names;
  for (const HostSetup& setup : hosts) names.push_back(setup.name);
  {
    MutexLock lock(&mu_);
    dispatcher_.StartPredicting(&loop_.clock(), options_.hooks.exec_oracle,
                                names);
    std::vector<HostLabels> labels;
    HostMask spanning;
    std::vector<Dispatcher::GangNode> gangs;
    for (const HostSetup& setup : hosts) {
      labels.push_back({setup.name, setup.labels});
      spanning.push_back(setup.spans_nodes);
      gangs.push_back({setup.gang_group, setup.node});
    }
    dispatcher_.KeepTo(PlacementMasks(options_.operations.placement, labels));
    dispatcher_.SpanNodesOn(std::move(spanning));
    dispatcher_.GangsOn(gangs);
  }
  std::future<CodeIdentity> identity;
  if (options_.code_identity_of) {
    identity = std::async(std::launch::async, options_.code_identity_of);
  }
  if (Status s = ConnectHosts(hosts); !s.ok()) return s;
  if (identity.valid()) options_.code_identity = identity.get();
  const Seconds started = loop_.clock().Now();
  if (recorder_.OpenHistory(options_.history_path, options_.program,
                            options_.cwd, started)) {
    MutexLock lock(&mu_);  // free: the engine thread is not started yet
    LearnFromHistory();
  }
  recorder_.ReportRunStarted(&mu_, started, options_.observers);
  OpenJournal();
  RecordSubmissionsOfAdapters();
  work_dir_.job_numbers().Choose(JobNumbers::LargestIn(recorder_.history()));
  // Before the engine thread, which reads it; it judges from the first
  // beat (the stall timer's, started by StartThread).
  stall_.StartWatchdog();
  monitor_.set_watchdog(stall_.watchdog());
  StartThread();
  return Status::Ok();
}

Status Engine::ConnectHosts(std::vector<HostSetup>& hosts) {
  // The adapters are made here, prepared together (logins and installs
  // block without the io_context), then connected one after the other
  // (their agents' handshakes run on it). The watch says what a slow host
  // is doing (docs/ssh.md, "The start").
  StartWatch watch(console_.messages());
  std::vector<std::unique_ptr<Adapter>> adapters;
  std::vector<size_t> watched;
  for (HostSetup& setup : hosts) {
    std::unique_ptr<Adapter> adapter = setup.make(loop_.io(), loop_.clock());
    if (!adapter) {
      return Status::Internal("host '" + setup.name + "': no adapter was made");
    }
    watched.push_back(watch.Begin(setup.name, std::string(adapter->kind())));
    WatchStart(*adapter, console_.sink(), watch, watched.back());
    adapters.push_back(std::move(adapter));
  }
  std::vector<Status> prepared(hosts.size());
  ParallelFor(hosts.size(), std::max(1, options_.connect_parallel),
              [&](size_t i) {
                prepared[i] = adapters[i]->Prepare();
                if (prepared[i].ok()) watch.Pause(watched[i]);
              });
  std::string refused;
  for (size_t i = 0; i < hosts.size(); ++i) {
    watch.Resume(watched[i]);
    AddHost(hosts[i], std::move(adapters[i]), prepared[i], watch, watched[i],
            &refused);
  }
  bool any = false;
  for (auto& h : hosts_) any |= h->usable;
  if (!any) {
    return Status::Unavailable("no host can run jobs:" + refused);
  }
  if (!refused.empty()) {
    Sayf(console_.messages(), MessageKind::kWarning,
         "gsrt: some hosts are not used:%s\n", refused.c_str());
  }
  return Status::Ok();
}

void Engine::AddHost(HostSetup& setup, std::unique_ptr<Adapter> adapter,
                     Status prepared, StartWatch& watch, size_t watched,
                     std::string* refused) {
  auto entry = std::make_unique<HostEntry>();
  entry->name = setup.name;
  entry->worker = setup.worker;
  entry->adapter = std::move(adapter);
  Status s = prepared.ok() ? entry->adapter->Connect() : prepared;
  for (auto& fallback : setup.fallbacks) {
    if (s.ok()) break;
    std::unique_ptr<Adapter> next = fallback(loop_.io(), loop_.clock());
    if (!next) continue;
    Sayf(console_.messages(), MessageKind::kWarning,
         "gsrt: %s; trying adapter %s\n", s.message().c_str(),
         std::string(next->kind()).c_str());
    entry->adapter->SetStartPhases(nullptr);
    entry->adapter = std::move(next);
    WatchStart(*entry->adapter, console_.sink(), watch, watched);
    s = entry->adapter->Prepare();
    if (s.ok()) s = entry->adapter->Connect();
  }
  // The watch ends with ConnectHosts; a reconnect later says nothing.
  entry->adapter->SetStartPhases(nullptr);
  watch.End(watched, s.ok());
  // gsrt.yaml's `slots` and `memory:` win; else what the host told.
  entry->learns_cores = setup.cores <= 0;
  entry->learns_memory = setup.memory_gb <= 0;
  entry->cores = setup.cores;
  entry->memory_gb = setup.memory_gb;
  entry->gpus = GpuPool(setup.gpus, setup.gpu_naming);
  entry->prefetch = std::max(0, setup.prefetch);
  entry->prefetch_window = std::max(0.0, setup.prefetch_window);
  HostSet::LearnCapacity(*entry);
  entry->shared = entry->adapter->shares_master_files();
  entry->data_dir = entry->adapter->work_dir() + "/data";
  if (!s.ok()) {
    *refused += "\n  " + setup.name + ": " + s.message();
    entry->usable = false;
  }
  recorder_.AddHost(setup.name, std::string(entry->adapter->kind()), s.ok());
  {
    MutexLock lock(&mu_);  // free: the engine thread is not started yet
    mover_.places().AddHost(entry->shared);
    dispatcher_.TransfersChanged();
  }
  hosts_.Add(std::move(entry));
}

void Engine::StartThread() {
  loop_.Run();
  if (memory_.journal && memory_.journal->resuming()) FetchResumeOutputs();
  // Before any job or transfer is posted (handlers run in order).
  boost::asio::post(loop_.io(), [this] { sweeper_.SweepAtStart(); });
  // The interrupted run's pilots leave the queue now (on the engine
  // thread, which runs the batch commands).
  if (memory_.journal && memory_.journal->HasJobsToForget())
    boost::asio::post(loop_.io(), [this] { ForgetQueuedJobs(false); });
  if (options_.handle_signals) {
    loop_.HandleSignals([this](int sig) { OnSignal(sig); });
  }
  monitor_.SetSlot();
  boost::asio::post(loop_.io(), [this] {
    monitor_.Start();
    if (options_.progress) {
      loop_.timers().Every(0.25, [this] {
        ShowProgress();
        return true;
      });
    }
    // What the run recorded, the journal and the batch jobs just queued
    // are committed within kFlushPeriod: a master killed later finds them
    // (engine_adopt.cc). Even when the commit failed, collected data goes:
    // disk use stays bounded, and a resume that misses entries only
    // recomputes.
    recorder_.StartFlushing([this] { RecordPending(); },
                            [this] {
                              if (memory_.journal) DeleteCollectedData();
                            });
    Seconds period;
    {
      MutexLock lock(&mu_);
      period = dispatcher_.scheduler().policy().reconsider_period();
    }
    if (period > 0) {
      loop_.timers().Every(period, [this] { return Reconsider(); });
    }
    stall_.Start(loop_.timers(), loop_.clock());
  });
}

void Engine::OnSignal(int sig) {
  uint64_t running;
  {
    MutexLock lock(&mu_);
    loop_.set_stopping(mu_);
    waits_.set_signal(sig);
    running = stats_.running;
  }
  // Not a task's failure: said so, so that it is never read as one.
  Sayf(console_.messages(), MessageKind::kWarning, "\ngsrt: %s\n",
       SignalStopMessage(sig, running).c_str());
  for (auto& h : hosts_) h->adapter->Shutdown();
  RecordPending();
  // Shutdown cancelled the batch jobs and pilots the adapters held: the
  // next run must not offer to take them over.
  if (memory_.journal) memory_.journal->RecordStillQueued(mu_);
  recorder_.ReportRunEnded(&mu_, RunStatus::kCancelled);
  (void)recorder_.EndRun(RunStatus::kCancelled);
  std::_Exit(128 + sig);
}

void Engine::ShutdownOnEngineThread() {
  loop_.timers().CancelAll();
  monitor_.CancelReconnects();
  recorder_.StopFlushing();
  {
    MutexLock lock(&mu_);
    dispatcher_.CancelRetries();
  }
  if (memory_.journal) {
    RecordPending();
    ForgetQueuedJobs(true);
    (void)recorder_.history()->Flush();
    DeleteCollectedData();
  }
  stall_.StopWatchdog();  // no more beats from here
  // The run has ended (this is GS_Off; a signal ends it elsewhere, keeping
  // what a resumed run may adopt): no later run reads these copies.
  mover_.RemoveRemoteCopies();
  for (auto& h : hosts_) h->adapter->Shutdown();
  RecordPending();
  loop_.Stop();
}

TaskId Engine::Submit(const gs_operation* op, const gs_arg* args) {
  // The file parameters, built in place: an array of FileParam would be
  // cleared first on every call (string_view has a constructor).
  static_assert(std::is_trivially_destructible_v<FileParam>);
  int num_files = 0;
  for (int i = 0; i < op->num_params; ++i)
    num_files += op->params[i].type == GS_TYPE_FILE;
  constexpr int kOnStack = 16;
  alignas(FileParam) unsigned char on_stack[kOnStack * sizeof(FileParam)];
  std::unique_ptr<unsigned char[]> on_heap;
  unsigned char* storage = on_stack;
  if (num_files > kOnStack) {
    on_heap = std::make_unique<unsigned char[]>(num_files * sizeof(FileParam));
    storage = on_heap.get();
  }
  FileParam* files = reinterpret_cast<FileParam*>(storage);
  int n = 0;
  for (int i = 0; i < op->num_params; ++i) {
    const gs_param_desc& p = op->params[i];
    if (p.type != GS_TYPE_FILE) continue;
    ::new (storage + n++ * sizeof(FileParam))
        FileParam{args[i].str ? args[i].str : "", p.dir != GS_DIR_OUT,
                  p.dir != GS_DIR_IN};
  }
  std::string scalars;
  if (n != op->num_params) EncodeScalars(*op, args, &scalars);
  MutexLock lock(&mu_);
  OpId id = program_.ops.Intern(op);
  if (!dispatcher_.Admit(id).ok()) return kRefusedTask;
  TaskId t = program_.graph.AddTask(id, files, n, scalars);
  ++stats_.submitted;
  if (recorder_.watched()) recorder_.ReportTaskSubmitted(mu_, t);
  if (memory_.journal && memory_.journal->resuming() &&
      memory_.journal->ResumeSubmitted(t))
    return t;
  TaskState state = program_.graph.task(t).state;
  if (state == TaskState::kReady) {
    dispatcher_.AddReady(t);
    WakeLocked();
  } else if (state == TaskState::kFutile) {
    ++stats_.futile;
  }
  return t;
}

Status Engine::Refusal(const gs_operation* op) {
  MutexLock lock(&mu_);
  OpId id = program_.ops.Intern(op);
  return dispatcher_.Admit(id);
}

Status Engine::WaitForResults(TaskId t, const gs_arg* args, void* return_slot) {
  MutexLock lock(&mu_);
  waits_.Wait(lock, [&] {
    mu_.AssertHeld();  // the gate asks with the lock held
    TaskState s = program_.graph.task(t).state;
    return s == TaskState::kDone || s == TaskState::kFailed ||
           s == TaskState::kFutile;
  });
  const Task& task = program_.graph.task(t);
  const OperationInfo& op = program_.ops[task.op];
  if (task.state != TaskState::kDone) {
    return Status::FailedPrecondition(
        FormatSyncStop(naming_.SyncStopOf(t, stats_.failures)));
  }
  auto it = program_.results.find(t);
  std::string results =
      it == program_.results.end() ? "" : std::move(it->second);
  if (it != program_.results.end()) program_.results.erase(it);
  return DecodeResults(*op.desc, results, args, return_slot);
}

void Engine::Barrier() {
  MutexLock lock(&mu_);
  waits_.Wait(lock, [&] {
    mu_.AssertHeld();  // the gate asks with the lock held
    return stats_.all_finished();
  });
}

void Engine::ShowProgress() {
  MutexLock lock(&mu_);
  // Drawn only while the master waits in gsrt: it prints nothing then.
  if (loop_.stopping(mu_) || !waits_.waiting()) return;
  console_.progress().Show(FormatProgress(stats_));
}

}  // namespace gs
