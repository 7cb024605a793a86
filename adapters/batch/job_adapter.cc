#include "adapters/batch/job_adapter.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <tuple>

#include "adapters/agent/agent_args.h"
#include "adapters/batch/batch_evidence.h"
#include "adapters/batch/node/batch_job_runner.h"
#include "adapters/batch/node/pilot_auth.h"
#include "adapters/host_environment.h"
#include "runtime/base/shell_quote.h"

namespace gs {

namespace fs = std::filesystem;

BatchJobAdapter::BatchJobAdapter(boost::asio::io_context& io, Clock& clock,
                                 BatchAdapterOptions options,
                                 std::unique_ptr<BatchSystem> system)
    : BatchHostAdapter(io, clock, std::move(options), std::move(system)) {}

Seconds BatchJobAdapter::expected_start_delay() const {
  return queue_wait_estimate().seconds;
}

WaitEstimate BatchJobAdapter::queue_wait_estimate() const {
  const Seconds now = clock().Now();
  std::optional<Seconds> system_start;
  if (system_start_ && now - system_start_read_ <= kSystemEstimateLife) {
    system_start = system_start_;
  }
  return EstimateQueueWait(
      system_start, now,
      waits().FromHistory(BatchJobShape(options().host.batch)));
}

BatchJobAdapter::~BatchJobAdapter() {
  Shutdown();
  *alive_ = false;
}

Status BatchJobAdapter::Connect() {
  if (connected_) return Status::Ok();
  if (Status s = CheckBatchOptions(options()); !s.ok()) return s;
  auto tag = NewPilotToken();  // random, so that runs never share names
  if (!tag.ok()) return tag.status();
  run_dir_ = options().host.workdir + "/batch-" + std::to_string(::getpid()) +
             "-" + tag->substr(0, 8);
  std::error_code ec;
  fs::create_directories(run_dir_, ec);
  if (ec) {
    return Status::IoError(Host() + ": cannot create " + run_dir_ + ": " +
                           ec.message());
  }
  fs::permissions(options().host.workdir, fs::perms::owner_all,
                  fs::perm_options::replace, ec);
  auto max_array = CheckSystem(run_dir_);
  // Made again by the first submission (create_directories): a master
  // killed before it submits leaves no empty run dir.
  fs::remove(run_dir_, ec);
  if (!max_array.ok()) return max_array.status();
  max_array_ = *max_array;
  if (options().max_array > 0)
    max_array_ = std::min(max_array_, options().max_array);
  slots_ = std::max(1, options().host.slots);
  if (options().host.batch.max_jobs > 0) {
    slots_ = std::min(slots_, options().host.batch.max_jobs);
  }
  job_name_ = "gsrt-" + options().host.name + "-" + tag->substr(0, 8);
  connected_ = true;
  system_start_ = commands().checked_start();
  system_start_read_ = clock().Now();
  shut_down_ = false;
  ArmTick();
  return Status::Ok();
}

int BatchJobAdapter::FreeSlots() const {
  if (!connected_ || shut_down_) return 0;
  // Slots are cores: each job holds its operation's.
  int busy = reporting_;
  for (const auto& [id, e] : jobs_) busy += e.cores;
  return std::max(0, slots_ - busy);
}

void BatchJobAdapter::Submit(JobSpec spec, DoneCallback done) {
  const JobId id = spec.id;
  Entry& e = jobs_[id];
  e.cores = std::max(1, spec.cores);
  e.nodes = std::max(1, spec.nodes);
  e.spec = std::move(spec);
  e.done = std::move(done);
  e.submitted = clock().Now();
  if (!connected_ || shut_down_) {
    Report(id, HostFailed{Host() + " is not connected"}, e.submitted,
           e.submitted);
    return;
  }
  Enqueue(id);
}

void BatchJobAdapter::Enqueue(JobId id) {
  pending_.push_back(id);
  if (flush_posted_) return;
  flush_posted_ = true;
  std::shared_ptr<bool> alive = alive_;
  // Jobs submitted in this turn of the engine go out together.
  boost::asio::post(io(), [this, alive] {
    if (*alive) Flush();
  });
}

void BatchJobAdapter::Adopt(QueuedJob job, JobSpec spec, DoneCallback done) {
  // Being submitted when the master stopped: the claim says whether a job
  // runs it (batch_claim.h).
  if (connected_ && !shut_down_ && job.batch_id.empty() && !job.dir.empty())
    job.batch_id = VoidOrFindClaim(job);
  if (!connected_ || shut_down_ || job.batch_id.empty()) {
    Submit(std::move(spec), std::move(done));
    return;
  }
  const JobId id = spec.id;
  Entry& e = jobs_[id];
  e.cores = std::max(1, spec.cores);
  e.nodes = std::max(1, spec.nodes);
  job.job = id;
  job.task = spec.task;
  job.adopted = true;
  e.spec = std::move(spec);
  e.done = std::move(done);
  e.submitted = clock().Now();
  e.dir = job.dir;
  e.index = job.index;
  e.batch_id = job.batch_id;
  e.adopted = true;
  adopted_names_.insert(job.name);
  old_run_dirs_.insert(fs::path(job.dir).parent_path().string());
  Queued(std::move(job));
  // Its record may be there already: the next tick reads it (never from
  // inside this call, as Submit).
}

void BatchJobAdapter::Forget(std::vector<QueuedJob> jobs) {
  for (const QueuedJob& j : jobs) {
    if (!j.dir.empty())
      old_run_dirs_.insert(fs::path(j.dir).parent_path().string());
  }
  BatchHostAdapter::Forget(std::move(jobs));
}

void BatchJobAdapter::Flush() {
  flush_posted_ = false;
  if (shut_down_) return;
  std::vector<JobId> ids;
  for (JobId id : pending_) {
    if (jobs_.count(id)) ids.push_back(id);  // not cancelled meanwhile
  }
  pending_.clear();
  // An array asks for one size of allocation: jobs holding different cores,
  // memory or GPUs go in different arrays.
  std::map<std::tuple<int, double, int, int>, std::vector<JobId>> by_need;
  for (JobId id : ids) {
    const JobSpec& s = jobs_[id].spec;
    by_need[{std::max(1, s.cores), s.memory_gb, std::max(0, s.gpus),
             std::max(0, s.nodes)}]
        .push_back(id);
  }
  for (auto& [need, same] : by_need) {
    for (size_t i = 0; i < same.size(); i += max_array_) {
      const size_t end = std::min(same.size(), i + max_array_);
      SubmitChunk(std::vector<JobId>(same.begin() + i, same.begin() + end));
    }
  }
}

void BatchJobAdapter::SubmitChunk(std::vector<JobId> ids) {
  const std::string dir = run_dir_ + "/b" + std::to_string(next_batch_++);
  std::error_code ec;
  fs::create_directories(dir, ec);
  Status s = ec ? Status::IoError("cannot create " + dir + ": " + ec.message())
                : Status::Ok();
  for (size_t i = 0; i < ids.size() && s.ok(); ++i) {
    Entry& e = jobs_[ids[i]];
    e.dir = dir;
    e.index = static_cast<int>(i);
    s = WriteFileAtomically(BatchSpecPath(dir, e.index),
                            EncodeBatchSpec(e.spec));
  }
  const std::string script = dir + "/job.sh";
  if (s.ok()) {
    // Recorded before the queue may know them: a master killed before
    // sbatch prints the id finds them when started again.
    std::vector<QueuedJob> submitting;
    for (JobId id : ids) {
      const Entry& e = jobs_[id];
      QueuedJob job;
      job.job = id;
      job.task = e.spec.task;
      job.name = job_name_;
      job.dir = e.dir;
      job.index = e.index;
      submitting.push_back(std::move(job));
    }
    RecordSubmissions(submitting);
  }
  if (s.ok()) {
    std::vector<std::string> argv = {options().agent_program, "--batch-job",
                                     dir, "--workdir", options().host.workdir};
    for (std::string& word : LauncherArgs(options().host.launcher)) {
      argv.push_back(std::move(word));
    }
    auto line = ShellCommandLine(InHostEnvironment(
        options().host.name, options().host.Environment(), std::move(argv)));
    s = line.ok()
            ? WriteFileAtomically(
                  script, "#!/bin/sh\n# gsrt batch job (generated)\nexec " +
                              *line + "\n")
            : line.status();
    ::chmod(script.c_str(), 0700);
  }
  StatusOr<std::string> id = s;
  if (s.ok()) {
    BatchSubmission job;
    job.name = job_name_;
    job.script = script;
    job.output = dir + "/out";
    job.array = ids.size() > 1 ? static_cast<int>(ids.size()) : 0;
    const JobSpec& first = jobs_[ids.front()].spec;
    job.cpus = std::max(1, first.cores);
    job.mem_mb = static_cast<int64_t>(std::ceil(first.memory_gb * 1024));
    job.gpus = std::max(0, first.gpus);
    job.nodes = std::max(0, first.nodes);
    id = commands().Submit(job);
    ++submissions_;
  }
  const Seconds now = clock().Now();
  for (size_t i = 0; i < ids.size(); ++i) {
    Entry& e = jobs_[ids[i]];
    if (!id.ok()) {
      Report(ids[i], HostFailed{id.status().message()}, now, now);
      continue;
    }
    QueuedJob queued;
    queued.job = ids[i];
    queued.task = e.spec.task;
    e.spec = JobSpec();  // on disk now
    e.submitted = now;
    e.batch_id = ids.size() > 1
                     ? commands().system().ElementId(*id, static_cast<int>(i))
                     : *id;
    queued.batch_id = e.batch_id;
    queued.name = job_name_;
    queued.dir = e.dir;
    queued.index = e.index;
    Queued(std::move(queued));
  }
}

void BatchJobAdapter::Poll(bool list) {
  std::optional<std::map<std::string, std::string>> listed;
  if (list) {
    // Jobs taken over from an earlier master carry its job name.
    std::string names = job_name_;
    for (const std::string& n : adopted_names_) names += "," + n;
    auto l = commands().List(names);
    if (l.ok()) {
      listed = std::move(l).value();
      ReadStartEstimates(names, *listed);
    }
  }
  std::vector<std::pair<JobId, StatusOr<JobReport>>> finished;
  std::vector<JobId> vanished;
  for (auto& [id, e] : jobs_) {
    if (e.batch_id.empty()) continue;
    const std::string record = BatchRecordPath(e.dir, e.index);
    if (::access(record.c_str(), F_OK) == 0) {
      auto bytes = ReadSmallFile(record);
      finished.emplace_back(id, bytes.ok()
                                    ? DecodeBatchRecord(*bytes)
                                    : StatusOr<JobReport>(bytes.status()));
      continue;
    }
    if (!listed) continue;
    if (listed->count(e.batch_id)) {
      e.missing = 0;
    } else if (++e.missing >= 2) {
      vanished.push_back(id);
    }
  }
  for (auto& [id, report] : finished) {
    if (!report.ok()) {
      const Seconds now = clock().Now();
      Report(id,
             HostFailed{Host() + ": unreadable exit record: " +
                        report.status().message()},
             now, now);
    } else {
      Report(id, std::move(report).value());
    }
  }
  for (JobId id : vanished) {
    Entry& e = jobs_[id];
    // The record may have landed since the look above.
    auto bytes = ReadSmallFile(BatchRecordPath(e.dir, e.index));
    if (bytes.ok()) {
      if (auto r = DecodeBatchRecord(*bytes); r.ok()) {
        Report(id, std::move(r).value());
        continue;
      }
    }
    if (e.adopted) {
      // Lost while no master watched it: it runs again, as a job of this
      // run (not a failure of the host: nobody saw it fail).
      Sayf(messages(), MessageKind::kWarning,
           "gsrt: %s: batch job %s of the interrupted run left the "
           "queue without an exit record; running its job again\n",
           Host().c_str(), e.batch_id.c_str());
      e.adopted = false;
      e.batch_id.clear();
      e.dir.clear();
      e.missing = 0;
      Enqueue(id);
      continue;
    }
    const std::string out = e.dir + "/out" +
                            (e.batch_id.find('_') != std::string::npos
                                 ? "." + std::to_string(e.index)
                                 : "");
    // Its output may say why; its batch directory goes at the run's end.
    const std::string kept = KeepBatchOutput(
        options().host.workdir, out,
        fs::path(run_dir_).filename().string() + "-" + e.batch_id + ".out");
    const Seconds now = clock().Now();
    Report(id,
           HostFailed{"batch job " + e.batch_id + " of " + Host() +
                      " left the queue without an exit record (cancelled "
                      "outside gsrt, past its walltime, or its node failed); " +
                      kept},
           now, now);
  }
}

void BatchJobAdapter::ReadStartEstimates(
    const std::string& names,
    const std::map<std::string, std::string>& listed) {
  bool pending = false;
  for (const auto& [id, e] : jobs_) {
    auto it = listed.find(e.batch_id);
    if (it != listed.end() && it->second == "PENDING") pending = true;
  }
  if (!pending) return;  // a new job's wait is not the queue's to say
  auto starts = commands().Starts(names);
  if (!starts.ok()) return;
  // A job submitted now queues behind ours: the latest of their starts.
  std::optional<Seconds> latest;
  for (const auto& [id, e] : jobs_) {
    auto it = starts->find(e.batch_id);
    if (it != starts->end() && (!latest || it->second > *latest))
      latest = it->second;
  }
  system_start_ = latest;
  system_start_read_ = clock().Now();
}

void BatchJobAdapter::ArmTick() {
  std::shared_ptr<bool> alive = alive_;
  tick_ = clock().After(options().record_interval, [this, alive] {
    if (!*alive || shut_down_) return;
    const int every = std::max(1, static_cast<int>(options().poll_interval /
                                                   options().record_interval));
    const bool list = ++ticks_ % every == 0;
    if (!jobs_.empty()) Poll(list);
    ArmTick();
  });
}

void BatchJobAdapter::Report(JobId id, JobOutcome outcome, Seconds started,
                             Seconds ended) {
  JobReport report;
  report.outcome = std::move(outcome);
  report.started = started;
  report.ended = ended;
  Report(id, std::move(report));
}

void BatchJobAdapter::Report(JobId id, JobReport report) {
  auto it = jobs_.find(id);
  if (it == jobs_.end()) return;
  Entry e = std::move(it->second);
  jobs_.erase(it);
  // The record stays until the run's files go (Shutdown): a master killed
  // before it journaled this job's end takes the result from it again
  // (Adopt) instead of running the job twice.
  if (!e.dir.empty() && std::holds_alternative<Exited>(report.outcome)) {
    ::unlink(BatchSpecPath(e.dir, e.index).c_str());
  }
  report.id = id;
  const bool ran = std::holds_alternative<Exited>(report.outcome) ||
                   std::holds_alternative<TimedOut>(report.outcome);
  // A job taken over was submitted by the killed master: its wait is not
  // known here.
  if (ran && !e.batch_id.empty() && !e.adopted) {
    JobShape shape = BatchJobShape(options().host.batch, e.cores / e.nodes);
    shape.nodes = e.nodes;
    waits().Add(e.submitted, report.started, shape);
  }
  report.submitted = std::min(e.submitted, report.started);
  report.started = std::max(report.started, report.submitted);
  report.ended = std::max(report.ended, report.started);
  // The slot frees when the runtime hears of it, not before.
  ++reporting_;
  std::shared_ptr<bool> alive = alive_;
  boost::asio::post(io(), [this, alive, done = std::move(e.done),
                           report = std::move(report)] {
    if (*alive) --reporting_;
    done(report);
  });
}

void BatchJobAdapter::Cancel(JobId id) {
  auto it = jobs_.find(id);
  if (it == jobs_.end()) return;
  if (!it->second.batch_id.empty()) {
    (void)commands().Cancel({it->second.batch_id});
  }
  const Seconds now = clock().Now();
  Report(id, Cancelled{}, now, now);
}

void BatchJobAdapter::Shutdown() {
  if (shut_down_) return;
  shut_down_ = true;
  tick_.reset();
  std::set<std::string> ids;
  for (const auto& [id, e] : jobs_) {
    // One id cancels a whole array; of an interrupted master's arrays,
    // only the elements taken over are this run's.
    if (!e.batch_id.empty())
      ids.insert(e.adopted ? e.batch_id
                           : e.batch_id.substr(0, e.batch_id.find('_')));
  }
  if (!ids.empty()) {
    (void)commands().Cancel(std::vector<std::string>(ids.begin(), ids.end()));
  }
  // The run's job files go (a vanished job's output was kept as evidence),
  // unless jobs are still cancelling.
  if (ids.empty() && !run_dir_.empty()) {
    std::error_code ec;
    fs::remove_all(run_dir_, ec);
    // The interrupted runs' files whose jobs this run took over, too.
    for (const std::string& dir : old_run_dirs_) {
      if (!voided_run_dirs().count(dir)) fs::remove_all(dir, ec);
    }
  }
  // Reported before this returns (the engine stops its loop next).
  auto left = std::move(jobs_);
  jobs_.clear();
  pending_.clear();
  connected_ = false;
  const Seconds now = clock().Now();
  for (auto& [id, e] : left) {
    JobReport report;
    report.id = id;
    report.outcome = Cancelled{};
    report.submitted = std::min(e.submitted, now);
    report.started = report.ended = now;
    e.done(std::move(report));
  }
}

void BatchJobAdapter::Probe(ProbeCallback done) {
  const Seconds start = clock().Now();
  auto listed = commands().List(job_name_.empty() ? "gsrt-probe" : job_name_);
  StatusOr<HostProbe> result = listed.status();
  if (listed.ok()) {
    HostProbe probe;
    probe.rtt = clock().Now() - start;
    probe.cores = static_cast<uint32_t>(options().host.batch.cpus_per_task);
    const WaitEstimate wait = queue_wait_estimate();
    if (wait.basis != WaitBasis::kNone) {
      probe.queue_wait = wait.seconds;
      probe.queue_wait_basis = wait.Describe(kind());
    }
    result = probe;
  }
  boost::asio::post(io(), [done = std::move(done), result] { done(result); });
}

std::vector<std::string> BatchJobAdapter::BatchIds() const {
  std::vector<std::string> ids;
  for (const auto& [id, e] : jobs_) {
    if (!e.batch_id.empty()) ids.push_back(e.batch_id);
  }
  return ids;
}

}  // namespace gs
