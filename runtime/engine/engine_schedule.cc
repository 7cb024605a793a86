// The engine's side of a scheduling round: the Dispatcher (dispatcher.h)
// places, this books each placement as a job and sends it, after staging
// its inputs when the host lacks them (engine_data.cc).
#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <cstdlib>
#include <map>

#include "runtime/base/joined.h"
#include "runtime/engine/engine.h"
#include "runtime/engine/engine_hosts.h"
#include "runtime/engine/job_builder.h"
#include "runtime/engine/resume_journal.h"

namespace gs {

namespace {

// The function the job runs and what it holds. An alternative has the
// called operation's parameters: only the function and its needs differ.
// runtime.timeout in the configuration wins over the IDL's @Timeout.
void SetWhatRuns(const gs_operation& runs, const Need& need,
                 const std::map<std::string, Seconds>& timeouts,
                 JobSpec* spec) {
  spec->operation = runs.name;
  spec->cores = need.cores;
  spec->memory_gb = need.memory_gb;
  spec->nodes = std::max(0, runs.nodes);
  // An MPI job's cores are its ranks': each runs one OpenMP thread unless
  // the user chose (not the k threads of a k-core job, on any host).
  if (spec->nodes > 0 && std::getenv("OMP_NUM_THREADS") == nullptr)
    spec->env.push_back("OMP_NUM_THREADS=1");
  if (auto it = timeouts.find(spec->operation); it != timeouts.end()) {
    spec->timeout = it->second;
  } else if (runs.timeout > 0) {
    spec->timeout = runs.timeout;
  }
}

// Instances on hosts sharing the master's files would write the same
// version files: a replica writes beside them and moves its outputs into
// place only if it wins.
void WriteReplicaBeside(JobSpec* spec, JobEntry* entry) {
  for (JobParam& p : spec->params) {
    if (p.dest.empty()) continue;
    std::string final_path = p.dest;
    p.dest += ".replica" + std::to_string(spec->id);
    entry->replica_outputs.push_back({p.dest, final_path});
  }
}

// A job that needs GPUs gets devices of its own, named in its environment:
// the scheduler placed it where that many are not held, and they stay
// held until its end (OnJobDone).
void GiveDevices(const Need& need, GpuPool* pool, JobSpec* spec) {
  spec->gpus = std::max(0, need.gpus);
  if (need.gpus <= 0) return;
  const std::string devices = Joined(pool->Take(spec->id, need.gpus), ",");
  if (!pool->names_devices()) return;  // the batch queue names them
  spec->env.push_back("CUDA_VISIBLE_DEVICES=" + devices);
  spec->env.push_back("GSRT_GPUS=" + devices);
}

// A gang job's nodes, in its environment for the runner
// (runtime/worker/run_binary.h), its host's first, each with its share of
// the ranks; and its other hosts, in its entry.
void NameGang(const Dispatcher& dispatcher, const Dispatcher::Booking& b,
              const Need& need, JobEntry* entry, JobSpec* spec) {
  const std::string share = ":" + std::to_string(need.cores);
  std::string nodes = dispatcher.NodeOf(b.host) + share;
  for (HostId other : b.gang) nodes += "," + dispatcher.NodeOf(other) + share;
  spec->env.push_back("GSRT_MPI_NODES=" + nodes);
  entry->gang_hosts = b.gang;
}

}  // namespace

void Engine::WakeLocked() {
  if (!loop_.made() || !dispatcher_.RequestRound()) return;
  boost::asio::post(loop_.io(), [this] {
    std::vector<Dispatch> out;
    {
      MutexLock lock(&mu_);
      dispatcher_.RoundRuns();
      ScheduleLocked(&out);
    }
    Send(std::move(out));
  });
}

void Engine::ScheduleLocked(std::vector<Dispatch>* out) {
  dispatcher_.Round([this, out](const Dispatcher::Booking& b) {
    mu_.AssertHeld();  // the round books with the lock held
    out->push_back(DispatchLocked(b));
  });
}

void Engine::DispatchLink::RetryDue(TaskId task) {
  std::vector<Dispatch> out;
  {
    MutexLock lock(&e_.mu_);
    if (!e_.dispatcher_.RetryEnded(task, e_.loop_.stopping(e_.mu_))) return;
    e_.ScheduleLocked(&out);
  }
  e_.Send(std::move(out));
}

Engine::Dispatch Engine::DispatchLocked(const Dispatcher::Booking& b) {
  const TaskId t = b.task;
  const HostId h = b.host;
  const bool replica = b.replica;
  const gs_operation* implementation = b.implementation;
  Task& task = program_.graph.task(t);
  task.state = TaskState::kRunning;
  // Replicas are not retries: they do not spend the task's budget.
  if (!replica) ++task.attempts;
  if (!replica) rewinder_.SetHostOf(t, h);
  HostEntry& host = *hosts_[h];
  JobSpec spec = BuildJobSpec(
      program_.graph, t, program_.ops[task.op],
      [this, h](VersionId v) { return mover_.places().PathOn(v, h); },
      host.worker);
  spec.id = work_dir_.job_numbers().Next();
  const Need need = implementation != nullptr
                        ? NeedOfOperation(*implementation)
                        : dispatcher_.scheduler().NeedOf(task.op);
  SetWhatRuns(
      implementation != nullptr ? *implementation : *program_.ops[task.op].desc,
      need, options_.operations.timeouts, &spec);
  JobEntry entry{
      t,  h,   b.predicted_end, loop_.clock().Now(), task.attempts, replica,
      {}, need};
  if (!b.gang.empty()) NameGang(dispatcher_, b, need, &entry, &spec);
  GiveDevices(need, &host.gpus, &spec);
  if (replica && host.shared) WriteReplicaBeside(&spec, &entry);
  const int slots = HostSet::Slots(host);
  const bool runs =
      host.occupancy.Start(spec.id, need.cores, slots, loop_.clock().Now());
  if (!runs) ++stats_.queued_on_hosts;
  if (recorder_.watched()) {
    recorder_.ReportJobStart(mu_, spec.id, t, h, replica, !runs, slots);
  }
  jobs_.Add(spec.id, std::move(entry));
  ++host.running;
  host.running_cores += need.cores;
  if (!replica) ++stats_.running;
  ++stats_.jobs;
  if (replica) ++stats_.replicas;
  ++stats_.jobs_per_host[host.name];
  std::vector<VersionId> inputs;
  const FileAccess* acc = program_.graph.accesses(t);
  for (uint32_t i = 0; i < task.num_files; ++i) {
    if (acc[i].in != kNoVersion && !mover_.places().HasCopy(acc[i].in, h)) {
      inputs.push_back(acc[i].in);
    }
  }
  if (!inputs.empty()) {
    ++host.staging;
    host.staging_cores += need.cores;
  }
  std::optional<QueuedJob> adopt;
  if (!replica && memory_.journal)
    adopt = memory_.journal->TakeOver(t, host.name);
  return Dispatch{h, std::move(spec), std::move(inputs), std::move(adopt)};
}

void Engine::Send(std::vector<Dispatch> dispatches) {
  for (Dispatch& d : dispatches) {
    if (!d.inputs.empty()) {
      StageAndSubmit(std::move(d));
      continue;
    }
    SubmitToHost(std::move(d));
  }
}

void Engine::SubmitToHost(Dispatch d) {
  auto done = [this, host = d.host](JobReport report) {
    OnJobDone(host, report);
  };
  Adapter& adapter = *hosts_[d.host]->adapter;
  if (d.adopt) {
    adapter.Adopt(std::move(*d.adopt), std::move(d.spec), std::move(done));
  } else {
    adapter.Submit(std::move(d.spec), std::move(done));
  }
  // Batch adapters queue jobs in a handler they posted just now: the ids
  // are committed right after it, so a master killed a moment later has
  // recorded every job it queued (engine_adopt.cc).
  if (!memory_.journal || !memory_.journal->PostQueuedCommit()) return;
  boost::asio::post(loop_.io(), [this] {
    memory_.journal->QueuedCommitRan();
    RecordQueuedJobs(/*commit=*/true);
  });
}

}  // namespace gs
