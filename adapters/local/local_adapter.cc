#include "adapters/local/local_adapter.h"

#include <fcntl.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <cerrno>
#include <ctime>
#include <limits>
#include <thread>
#include <utility>
#include <vector>

#include "adapters/local/host_facts.h"
#include "adapters/local/job_files.h"
#include "adapters/local/worker_command.h"
#include "runtime/base/joined.h"
#include "runtime/base/messages.h"

namespace gs {

namespace {

LocalAdapterOptions Normalized(LocalAdapterOptions options) {
  if (options.slots < 1) options.slots = 1;
  if (options.worker_limits.max_jobs < 1) options.worker_limits.max_jobs = 1;
  while (options.work_dir.size() > 1 && options.work_dir.back() == '/') {
    options.work_dir.pop_back();
  }
  return options;
}

// Fork servers run no user code: they never wear out.
WorkerPoolLimits PoolLimits(const LocalAdapterOptions& options) {
  if (options.workers != WorkerMode::kFork) return options.worker_limits;
  return {.max_jobs = std::numeric_limits<int>::max(), .max_rss_kb = 0};
}

}  // namespace

int LocalAdapterOptions::DefaultSlots() {
  const unsigned n = std::thread::hardware_concurrency();
  return n > 0 ? static_cast<int>(n) : 1;
}

LocalAdapter::LocalAdapter(boost::asio::io_context& io, Clock& clock,
                           LocalAdapterOptions options, FileSystem* fs)
    : io_(io),
      clock_(clock),
      fs_(*fs),
      options_(Normalized(std::move(options))),
      jobs_dir_(options_.work_dir + "/jobs"),
      logs_dir_(options_.work_dir + "/logs"),
      sandboxes_(fs_, jobs_dir_, options_.slots),
      evidence_(fs_, options_.work_dir + "/failed",
                EvidenceSession(std::time(nullptr), ::getpid())),
      workers_(PoolLimits(options_),
               options_.workers == WorkerMode::kFork ? kForkServerCommand
                                                     : kServeCommand,
               &launch_),
      gpus_(options_.gpus) {
  host_.io = &io_;
  host_.fs = &fs_;
  host_.sandboxes = &sandboxes_;
  host_.evidence = &evidence_;
  host_.workers = &workers_;
  host_.launch = &launch_;
  host_.messages = &messages();
  host_.host_name = options_.host_name;
  host_.jobs_dir = jobs_dir_;
  host_.logs_dir = logs_dir_;
  host_.mode = options_.workers;
  host_.max_idle_workers = static_cast<size_t>(options_.slots);
}

void LocalAdapter::SetMessages(MessageSink* sink) {
  AdapterDefaults::SetMessages(sink);
  host_.messages = &messages();
}

LocalAdapter::~LocalAdapter() {
  Shutdown();
  if (host_.devnull_fd >= 0) ::close(host_.devnull_fd);
}

Status LocalAdapter::Connect() {
  shut_down_ = false;
  return EnsureOpen();
}

Status LocalAdapter::EnsureOpen() {
  const std::string where = "host '" + options_.host_name + "'";
  if (!dirs_ready_) {
    if (options_.work_dir.empty() || options_.work_dir.front() != '/') {
      return Status::InvalidArgument(
          where + ": work dir '" + options_.work_dir +
          "' is not an absolute path; set the host's workdir to one");
    }
    for (const std::string& dir : {jobs_dir_, logs_dir_}) {
      if (Status s = fs_.CreateDirs(dir); !s.ok()) {
        return Status::IoError(where + ": cannot create '" + dir +
                               "' (choose a writable workdir): " + s.message());
      }
    }
    evidence_.RemoveOlderThan(options_.keep_failed, std::time(nullptr));
    dirs_ready_ = true;
  }
  if (!launch_ready_) {
    auto launch = PrepareWorkerLaunch(options_.host_name, options_.environment,
                                      jobs_dir_);
    if (!launch.ok()) return launch.status();
    launch_ = std::move(launch).value();
    launch_ready_ = true;
  }
  // The workers' stdin: a descriptor for spawning, not file work.
  if (host_.devnull_fd < 0) {
    host_.devnull_fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (host_.devnull_fd < 0) {
      return Status::FromErrno(where + ": open /dev/null", errno);
    }
  }
  return Status::Ok();
}

int LocalAdapter::FreeSlots() const {
  const int free = options_.slots - busy_cores_ - queued_cores_;
  return free > 0 ? free : 0;
}

void LocalAdapter::Submit(JobSpec spec, DoneCallback done) {
  auto job = std::make_shared<LocalJob>(host_, std::move(spec), std::move(done),
                                        clock_.Now());
  if (shut_down_) {
    PostFailure(job, HostFailed{"host '" + options_.host_name +
                                "' was shut down; Connect() it again"});
    return;
  }
  if (job->WantsDevices() && job->spec().gpus > gpus_.size()) {
    PostFailure(job, HostFailed{"host '" + options_.host_name + "' has " +
                                std::to_string(gpus_.size()) +
                                " GPUs to hand out, "
                                "and job " +
                                std::to_string(job->id()) + " holds " +
                                std::to_string(job->spec().gpus)});
    return;
  }
  if (queued_.empty() && Fits(*job)) {
    Start(job);
  } else {
    queued_cores_ += job->cores();
    queued_.push_back(std::move(job));
  }
}

void LocalAdapter::PostFailure(const JobPtr& job, JobOutcome outcome) {
  job->Post(job->ReportOf(std::move(outcome), clock_.Now()));
}

void LocalAdapter::Start(const JobPtr& job) {
  Status s = EnsureOpen();
  if (!s.ok()) return PostFailure(job, HostFailed{s.message()});
  if (running_.count(job->id()) > 0) {
    return PostFailure(job, NotStarted("job id " + std::to_string(job->id()) +
                                       " is already running on host '" +
                                       options_.host_name + "'"));
  }
  if (job->WantsDevices()) {
    job->GiveDevices(Joined(gpus_.Take(job->id(), job->spec().gpus), ","));
  } else if (gpus_.size() > 0 && !job->NamesDevices()) {
    // The allocation's devices are the GPU jobs'; this one sees none.
    job->GiveDevices("");
  }
  std::optional<JobOutcome> failed = job->Stage();
  if (!failed) {
    failed = job->Launch(
        [this](const JobPtr& ended, bool reaped, int status, int wait_errno) {
          Finish(ended, reaped, status, wait_errno);
        });
  }
  if (failed) {
    gpus_.Release(job->id());
    return PostFailure(job, std::move(*failed));
  }
  Track(job);
}

void LocalAdapter::Track(const JobPtr& job) {
  running_.emplace(job->id(), job);
  busy_cores_ += job->cores();
  std::unique_ptr<Timer> timeout;
  if (job->spec().timeout > 0) {
    timeout = clock_.After(job->spec().timeout, [this, id = job->id()] {
      auto it = running_.find(id);
      if (it != running_.end()) it->second->TimeOut();
    });
  }
  job->Began(clock_.Now(), std::move(timeout));
}

void LocalAdapter::Finish(const JobPtr& job, bool reaped, int status,
                          int wait_errno) {
  if (running_.erase(job->id()) > 0) busy_cores_ -= job->cores();
  gpus_.Release(job->id());
  JobReport report = job->Conclude(reaped, status, wait_errno);
  report.ended = clock_.Now();
  StartQueued();
  job->Deliver(std::move(report));
}

bool LocalAdapter::Fits(const LocalJob& job) const {
  return Fits(job.cores()) &&
         (!job.WantsDevices() || gpus_.free() >= job.spec().gpus);
}

void LocalAdapter::Cancel(JobId id) {
  auto it = running_.find(id);
  if (it != running_.end()) return it->second->Cancel();
  for (auto q = queued_.begin(); q != queued_.end(); ++q) {
    if ((*q)->id() == id) {
      JobPtr job = *q;
      queued_.erase(q);
      queued_cores_ -= job->cores();
      PostFailure(job, Cancelled{});
      return;
    }
  }
}

void LocalAdapter::StartQueued() {
  while (!queued_.empty() && Fits(*queued_.front())) {
    JobPtr job = std::move(queued_.front());
    queued_.pop_front();
    queued_cores_ -= job->cores();
    Start(job);
  }
}

Status LocalAdapter::CopyAtomically(const std::string& from,
                                    const std::string& to) {
  const size_t slash = to.rfind('/');
  if (slash != std::string::npos && slash > 0) {
    (void)fs_.CreateDirs(to.substr(0, slash));
  }
  return fs_.CopyAtomically(from, to, JobFileReplace());
}

void LocalAdapter::Put(std::string master_path, std::string host_path,
                       StatusCallback done) {
  Status s = CopyAtomically(master_path, host_path);
  boost::asio::post(io_, [done = std::move(done), s] { done(s); });
}

void LocalAdapter::Get(std::string host_path, std::string master_path,
                       StatusCallback done) {
  Status s = CopyAtomically(host_path, master_path);
  boost::asio::post(io_, [done = std::move(done), s] { done(s); });
}

void LocalAdapter::Remove(std::string host_path) {
  (void)fs_.Remove(host_path);
}

void LocalAdapter::Sweep(std::string, std::vector<std::string>) {
  if (running_.empty()) sandboxes_.Clear();
}

void LocalAdapter::Probe(ProbeCallback done) {
  const Seconds asked = clock_.Now();
  Status usable = EnsureOpen();
  // Captures the clock, not `this`: it may run after the adapter is gone
  // (the clock, like the io_context, outlives every adapter made on it).
  boost::asio::post(io_, [done = std::move(done), usable, asked,
                          clock = &clock_]() {
    if (!usable.ok()) return done(usable);
    const auto facts = ReadMachineFacts();  // the agent's HELLO reads the same
    HostProbe probe;
    probe.cores = facts.cores;
    probe.memory_total = facts.memory_total;
    probe.memory_available = facts.memory_available;
    probe.load1 = facts.load1;
    probe.rtt = clock->Now() - asked;
    done(probe);
  });
}

uint64_t LocalAdapter::memory_capacity() const {
  return ReadMachineFacts().memory_total;
}

void LocalAdapter::Shutdown() {
  shut_down_ = true;
  std::vector<JobPtr> jobs;
  jobs.reserve(running_.size() + queued_.size());
  for (auto& [id, job] : running_) jobs.push_back(job);
  running_.clear();
  busy_cores_ = 0;
  for (JobPtr& job : queued_) jobs.push_back(std::move(job));
  queued_.clear();
  queued_cores_ = 0;

  for (const JobPtr& job : jobs) job->Abandon();
  sandboxes_.Clear();
  workers_.Clear();
  // Callbacks last: they may call back into the adapter.
  const Seconds now = clock_.Now();
  for (const JobPtr& job : jobs) {
    job->Deliver(job->ReportOf(Cancelled{}, now));
  }
}

}  // namespace gs
