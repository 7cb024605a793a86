#include "adapters/local/local_adapter.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/read.hpp>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <limits>
#include <thread>
#include <utility>
#include <vector>

#include "adapters/local/host_facts.h"
#include "adapters/local/job_files.h"
#include "adapters/local/worker_command.h"
#include "runtime/base/process_spawn.h"
#include "runtime/base/serve_protocol.h"
#include "runtime/base/worker_failure.h"

namespace gs {

namespace {

// A worker that exits 2 before answering its first request: it does not
// speak the mode asked of it (an old build) or refused to serve.
bool ExitedBeforeServing(int status) {
  return status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 2;
}

std::string CannotServeNote(bool forked) {
  return forked ? " (a fork server that exits 2 before its first "
                  "answer may not know `fork-server` (rebuild it with "
                  "this gsrt) or found threads started while it "
                  "loaded, which it cannot fork safely; set "
                  "runtime.workers: process)"
                : " (a persistent worker that exits 2 before its first "
                  "answer may not know `serve`: rebuild it with this "
                  "gsrt or set runtime.workers: process)";
}

// Result files hold a few encoded scalars; anything near this is a bug.
constexpr uint64_t kMaxResultBytes = 16 << 20;

Seconds ToSeconds(const timeval& tv) {
  return static_cast<Seconds>(tv.tv_sec) + tv.tv_usec / 1e6;
}

std::string SignalText(int sig) {
  std::string text = "killed by signal " + std::to_string(sig);
  if (const char* abbrev = sigabbrev_np(sig)) {
    text += " (SIG";
    text += abbrev;
    text += ")";
  }
  return text;
}

// The outcome of a job whose worker never ran.
Exited NotStarted(std::string error) {
  Exited e;
  e.code = 127;
  e.error = std::move(error);
  return e;
}

std::string CannotStart(const std::string& worker, const std::string& host,
                        const Status& status) {
  std::string what =
      "cannot start worker '" + worker + "' on host '" + host + "': ";
  if (::access(worker.c_str(), F_OK) != 0) {
    what += "no such file; build the worker or fix the worker path";
  } else if (::access(worker.c_str(), X_OK) != 0) {
    what += "not executable; check its permissions (chmod +x)";
  } else {
    what += status.message();
  }
  return what;
}

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

bool IsInput(JobParam::Kind kind) {
  return kind == JobParam::Kind::kFileIn || kind == JobParam::Kind::kFileInOut;
}

}  // namespace

int LocalAdapterOptions::DefaultSlots() {
  const unsigned n = std::thread::hardware_concurrency();
  return n > 0 ? static_cast<int>(n) : 1;
}

struct LocalAdapter::Job {
  explicit Job(boost::asio::io_context& io) : pidfd(io) {}
  JobSpec spec;
  DoneCallback done;
  WorkerCommand cmd;
  std::string sandbox;
  pid_t pid = -1;
  // Readable when the worker has exited.
  boost::asio::posix::stream_descriptor pidfd;
  // Persistent mode: the worker serving the job.
  std::unique_ptr<PersistentWorker> worker;
  char reply[kServeReplyBytes];
  // Appended to the error of a failed job.
  std::string note;
  std::unique_ptr<Timer> timeout;
  Seconds submitted = 0;
  Seconds started = 0;
  uint64_t bytes_in = 0;
  rusage usage{};
  bool cancel_requested = false;
  bool timed_out = false;
  // Reported (or being reported) already; late asio completions ignore it.
  bool finished = false;
};

LocalAdapter::LocalAdapter(boost::asio::io_context& io, Clock& clock,
                           LocalAdapterOptions options)
    : io_(io),
      clock_(clock),
      options_(Normalized(std::move(options))),
      jobs_dir_(options_.work_dir + "/jobs"),
      logs_dir_(options_.work_dir + "/logs"),
      sandboxes_(jobs_dir_, options_.slots),
      evidence_(options_.work_dir + "/failed",
                EvidenceSession(std::time(nullptr), ::getpid())),
      workers_(PoolLimits(options_), options_.workers == WorkerMode::kFork
                                         ? kForkServerCommand
                                         : kServeCommand) {}

LocalAdapter::~LocalAdapter() {
  Shutdown();
  if (devnull_fd_ >= 0) ::close(devnull_fd_);
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
      std::error_code ec;
      std::filesystem::create_directories(dir, ec);
      if (ec) {
        return Status::FromErrno(
            where + ": cannot create '" + dir + "' (choose a writable workdir)",
            ec.value());
      }
    }
    sandboxes_.RemoveStale();
    evidence_.RemoveOlderThan(options_.keep_failed, std::time(nullptr));
    dirs_ready_ = true;
  }
  if (devnull_fd_ < 0) {
    devnull_fd_ = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (devnull_fd_ < 0) {
      return Status::FromErrno(where + ": open /dev/null", errno);
    }
  }
  return Status::Ok();
}

namespace {

int CoresOf(const JobSpec& spec) { return std::max(1, spec.cores); }

}  // namespace

int LocalAdapter::FreeSlots() const {
  const int free = options_.slots - busy_cores_ - queued_cores_;
  return free > 0 ? free : 0;
}

void LocalAdapter::Submit(JobSpec spec, DoneCallback done) {
  auto job = std::make_shared<Job>(io_);
  job->spec = std::move(spec);
  job->done = std::move(done);
  job->submitted = clock_.Now();
  if (shut_down_) {
    PostFailure(job, HostFailed{"host '" + options_.host_name +
                                "' was shut down; Connect() it again"});
    return;
  }
  if (queued_.empty() && Fits(CoresOf(job->spec))) {
    Start(job);
  } else {
    queued_cores_ += CoresOf(job->spec);
    queued_.push_back(std::move(job));
  }
}

void LocalAdapter::PostFailure(const JobPtr& job, JobOutcome outcome) {
  job->finished = true;
  JobReport report;
  report.id = job->spec.id;
  report.outcome = std::move(outcome);
  report.submitted = job->submitted;
  report.started = job->started > 0 ? job->started : clock_.Now();
  report.ended = clock_.Now();
  // Captures no `this`: it may run after the adapter is gone.
  boost::asio::post(io_, [done = std::move(job->done),
                          report = std::move(report)]() { done(report); });
}

void LocalAdapter::Start(const JobPtr& job) {
  const JobSpec& spec = job->spec;
  Status s = EnsureOpen();
  if (!s.ok()) return PostFailure(job, HostFailed{s.message()});

  if (running_.count(spec.id) > 0) {
    return PostFailure(job, NotStarted("job id " + std::to_string(spec.id) +
                                       " is already running on host '" +
                                       options_.host_name + "'"));
  }
  job->sandbox = jobs_dir_ + "/" + std::to_string(spec.id);
  auto cmd = BuildWorkerCommand(spec, job->sandbox);
  if (!cmd.ok()) return PostFailure(job, NotStarted(cmd.status().message()));
  job->cmd = std::move(cmd).value();

  std::vector<std::string> absent_inputs;
  for (size_t i = 0; i < spec.params.size(); ++i) {
    const JobParam& p = spec.params[i];
    if (!IsInput(p.kind)) continue;
    auto size = FileSize(p.source);
    // An input that does not exist is passed through, as a sequential run
    // would see it: the function decides (an append creates the file).
    if (!size.ok() && size.status().code() == Status::Code::kNotFound) {
      absent_inputs.push_back(p.source);
      continue;
    }
    if (!size.ok()) {
      return PostFailure(
          job, NotStarted("input file of parameter " + std::to_string(i) +
                          " is not readable on host '" + options_.host_name +
                          "': " + size.status().message()));
    }
    job->bytes_in += *size;
  }

  s = sandboxes_.Acquire(job->sandbox);
  if (!s.ok()) {
    return PostFailure(
        job, HostFailed{"host '" + options_.host_name + "': " + s.message()});
  }
  for (const OutputMove& out : job->cmd.outputs) {
    if (out.source.empty()) continue;
    if (std::find(absent_inputs.begin(), absent_inputs.end(), out.source) !=
        absent_inputs.end()) {
      continue;  // the worker starts without the file
    }
    s = CopyFile(out.source, out.temp);
    if (!s.ok()) {
      SandboxPool::Remove(job->sandbox);
      return PostFailure(job, NotStarted("cannot stage inout file of "
                                         "parameter " +
                                         std::to_string(out.param_index) +
                                         ": " + s.message()));
    }
  }

  // A k-core job's OpenMP runtime uses its k cores, unless the user chose
  // (in the master's environment or the job's); in the job's environment,
  // so that a persistent worker serves it only with the same setting.
  const bool omp_chosen =
      std::getenv("OMP_NUM_THREADS") != nullptr ||
      std::any_of(spec.env.begin(), spec.env.end(), [](const std::string& e) {
        return e.rfind("OMP_NUM_THREADS=", 0) == 0;
      });
  if (spec.cores > 1 && !omp_chosen) {
    job->spec.env.push_back("OMP_NUM_THREADS=" + std::to_string(spec.cores));
  }
  if (options_.workers != WorkerMode::kProcess) return StartOnWorker(job);

  SpawnRequest req;
  req.argv = &job->cmd.argv;
  req.cwd = job->sandbox;
  req.in.fd = devnull_fd_;
  req.out.file = "stdout";
  req.err.file = "stderr";
  req.env = &spec.env;
  auto proc = SpawnProcess(req);
  if (!proc.ok()) {
    SandboxPool::Remove(job->sandbox);
    return PostFailure(
        job, NotStarted(
                 CannotStart(spec.worker, options_.host_name, proc.status())));
  }
  job->pid = proc->pid;
  boost::system::error_code ec;
  job->pidfd.assign(proc->pidfd, ec);
  if (ec) {
    // Cannot watch it (reactor trouble): stop it now rather than lose it.
    ::close(proc->pidfd);
    Kill(*job);
    ::waitpid(job->pid, nullptr, 0);
    SandboxPool::Remove(job->sandbox);
    return PostFailure(
        job, HostFailed{"host '" + options_.host_name +
                        "': cannot watch worker process: " + ec.message()});
  }
  Track(job);
  WaitForExit(job);
}

void LocalAdapter::Track(const JobPtr& job) {
  const JobSpec& spec = job->spec;
  job->started = clock_.Now();
  running_.emplace(spec.id, job);
  busy_cores_ += CoresOf(spec);
  if (spec.timeout > 0) {
    job->timeout = clock_.After(spec.timeout, [this, id = spec.id] {
      auto it = running_.find(id);
      if (it == running_.end() || it->second->cancel_requested) return;
      it->second->timed_out = true;
      Kill(*it->second);
    });
  }
}

void LocalAdapter::StartOnWorker(const JobPtr& job) {
  const JobSpec& spec = job->spec;
  ServeRequest request;
  request.cwd = job->sandbox;
  request.env = spec.env;
  request.args.assign(job->cmd.argv.begin() + 1, job->cmd.argv.end());
  auto frame = EncodeServeRequest(request);
  if (!frame.ok()) {
    SandboxPool::Remove(job->sandbox);
    return PostFailure(job, NotStarted(frame.status().message()));
  }
  // An idle worker may have died since its last job (killed from outside):
  // a second, fresh one gets the job.
  Status sent;
  int fresh_status = -1;
  for (int attempt = 0; attempt < 2; ++attempt) {
    auto worker = workers_.Take(spec.worker, spec.env, devnull_fd_);
    if (!worker.ok()) {
      SandboxPool::Remove(job->sandbox);
      return PostFailure(job,
                         NotStarted(CannotStart(spec.worker, options_.host_name,
                                                worker.status())));
    }
    job->worker = std::move(worker).value();
    sent = job->worker->Send(*frame);
    if (sent.ok()) break;
    // A fresh worker that exits at once (one that does not know `serve`)
    // may break the pipe before its first request: its status says why.
    job->pid = job->worker->pid();
    fresh_status = job->worker->jobs() == 0 ? job->worker->Stop() : -1;
    job->worker.reset();
  }
  if (!sent.ok() && ExitedBeforeServing(fresh_status)) {
    job->note = CannotServeNote(options_.workers == WorkerMode::kFork);
    Track(job);
    boost::asio::post(io_, [this, job, status = fresh_status] {
      if (!job->finished) Finish(job, /*reaped=*/true, status, 0);
    });
    return;
  }
  if (!sent.ok()) {
    SandboxPool::Remove(job->sandbox);
    return PostFailure(job, HostFailed{"host '" + options_.host_name +
                                       "': " + sent.message()});
  }
  job->pid = job->worker->pid();
  Track(job);
  boost::asio::async_read(
      job->worker->Channel(io_), boost::asio::buffer(job->reply),
      [this, job](const boost::system::error_code& ec, size_t) {
        if (job->finished) return;  // taken by Shutdown
        OnReply(job, ec);
      });
}

void LocalAdapter::OnReply(const JobPtr& job,
                           const boost::system::error_code& ec) {
  std::unique_ptr<PersistentWorker> worker = std::move(job->worker);
  const bool forked = options_.workers == WorkerMode::kFork;
  if (ec || job->cancel_requested || job->timed_out) {
    // It died mid-job (crash, exit() in the user's code) or was killed
    // for a timeout or a cancel: its wait status is the job's, as in
    // process mode, and it never serves again. A fork server's child is
    // in its process group and dies with it.
    const bool first_job = worker->jobs() == 0;
    const int status = worker->Stop();
    if (first_job && ExitedBeforeServing(status)) {
      job->note = CannotServeNote(forked);
    } else if (forked && !job->cancel_requested && !job->timed_out) {
      job->note = " (its fork server died; a fresh one serves the next job)";
    }
    return Finish(job, status != -1, status, ECHILD);
  }
  const ServeReply reply = DecodeServeReply(job->reply);
  int64_t user_us = 0, system_us = 0;
  worker->Answered(reply, &user_us, &system_us);
  job->usage.ru_utime.tv_sec = user_us / 1000000;
  job->usage.ru_utime.tv_usec = user_us % 1000000;
  job->usage.ru_stime.tv_sec = system_us / 1000000;
  job->usage.ru_stime.tv_usec = system_us % 1000000;
  job->usage.ru_maxrss = reply.max_rss_kb;
  workers_.Give(std::move(worker), reply.max_rss_kb,
                static_cast<size_t>(options_.slots));
  // A fork server reports its child's wait status; `serve` an exit code.
  Finish(job, true, forked ? reply.code : (reply.code & 0xff) << 8, 0);
}

void LocalAdapter::WaitForExit(const JobPtr& job) {
  job->pidfd.async_wait(boost::asio::posix::stream_descriptor::wait_read,
                        [this, job](const boost::system::error_code& ec) {
                          // A job taken by Shutdown (maybe with the adapter
                          // gone) is done.
                          if (job->finished) return;
                          OnExit(job);
                        });
}

void LocalAdapter::OnExit(const JobPtr& job) {
  int status = 0;
  pid_t r;
  do {
    r = ::wait4(job->pid, &status, WNOHANG, &job->usage);
  } while (r < 0 && errno == EINTR);
  if (r == 0) return WaitForExit(job);  // woken before the exit
  Finish(job, r >= 0, status, errno);
}

void LocalAdapter::Finish(const JobPtr& job, bool reaped, int status,
                          int wait_errno) {
  job->finished = true;
  if (running_.erase(job->spec.id) > 0) busy_cores_ -= CoresOf(job->spec);
  job->timeout.reset();
  boost::system::error_code ignored;
  job->pidfd.close(ignored);

  JobReport report;
  report.id = job->spec.id;
  report.submitted = job->submitted;
  report.started = job->started;
  if (!reaped) {
    report.outcome = HostFailed{
        "lost the exit status of worker pid " + std::to_string(job->pid) +
        " on host '" + options_.host_name + "' (" + std::strerror(wait_errno) +
        "); is SIGCHLD ignored or another thread reaping children?"};
    SandboxPool::Remove(job->sandbox);
  } else if (job->cancel_requested) {
    report.outcome = Cancelled{};
    SandboxPool::Remove(job->sandbox);
  } else if (job->timed_out) {
    // What it printed before it was killed is what explains the timeout.
    RemoveIfStale(job->cmd.result_path);
    report.outcome = TimedOut{job->spec.timeout, KeepEvidence(*job)};
  } else {
    Exited exited = Collect(*job, status);
    if (!exited.succeeded()) {
      RemoveIfStale(job->cmd.result_path);
      exited.log_dir = KeepEvidence(*job);
      exited.error += job->note;
    }
    report.outcome = std::move(exited);
  }
  report.ended = clock_.Now();
  StartQueued();
  DoneCallback done = std::move(job->done);
  done(std::move(report));
}

Exited LocalAdapter::Collect(Job& job, int status) {
  Exited e;
  e.usage.user_cpu = ToSeconds(job.usage.ru_utime);
  e.usage.system_cpu = ToSeconds(job.usage.ru_stime);
  e.usage.max_rss_kb = job.usage.ru_maxrss;
  e.bytes_in = job.bytes_in;
  e.log_dir = job.sandbox;  // kept unless everything below succeeds
  if (WIFSIGNALED(status)) {
    e.code = 128 + WTERMSIG(status);
    e.error = SignalText(WTERMSIG(status)) + FullDiskNote(job.sandbox);
    return e;
  }
  e.code = WEXITSTATUS(status);
  if (e.code != 0) {
    e.error = ExitError(job, e.code);
    return e;
  }
  for (const OutputMove& out : job.cmd.outputs) {
    auto size = FileSize(out.temp);
    if (!size.ok()) {
      e.error = "declared output '" + out.dest + "' (parameter " +
                std::to_string(out.param_index) + ") was not written";
      return e;
    }
    e.bytes_out += *size;
  }
  auto results = ReadResultFile(job.cmd.result_path, kMaxResultBytes);
  if (!results.ok()) {
    e.error = "the worker exited 0 but its result file is unusable: " +
              results.status().message();
    return e;
  }
  e.results = std::move(results).value();
  for (const OutputMove& out : job.cmd.outputs) {
    Status s = MoveFile(out.temp, out.dest);
    if (!s.ok()) {
      e.error = "output of parameter " + std::to_string(out.param_index) +
                " could not be put in place: " + s.message();
      return e;
    }
  }
  KeepLogs(job, e);
  return e;
}

std::string LocalAdapter::ExitError(const Job& job, int code) {
  // A function that threw left its message in the result file.
  auto file = ReadResultFile(job.cmd.result_path, kMaxResultBytes);
  if (file.ok()) {
    if (auto what = DecodeThrown(*file)) {
      return ThrownError(job.spec.operation, *what);
    }
  }
  return "exit code " + std::to_string(code) + FullDiskNote(job.sandbox);
}

void LocalAdapter::KeepLogs(Job& job, Exited& e) {
  e.log_dir.clear();
  const std::string id = std::to_string(job.spec.id);
  for (const char* stream : {SandboxPool::kStdout, SandboxPool::kStderr}) {
    const std::string path = job.sandbox + "/" + stream;
    auto size = FileSize(path);
    if (!size.ok() || *size == 0) continue;
    const std::string kept = logs_dir_ + "/job-" + id + "." + stream;
    // A log that cannot be kept is not worth failing a finished job.
    if (MoveFile(path, kept).ok()) e.log_dir = logs_dir_;
  }
  sandboxes_.Release(job.sandbox);
}

std::string LocalAdapter::KeepEvidence(const Job& job) {
  auto kept = evidence_.Keep(
      job.sandbox,
      EvidenceName(job.spec.task, job.spec.operation, job.spec.id));
  // Left in place, the next job with its id would empty it: say so.
  if (!kept.ok()) {
    Sayf(messages(), MessageKind::kWarning, "gsrt: host '%s': %s\n",
         options_.host_name.c_str(), kept.status().message().c_str());
    return job.sandbox;
  }
  return *kept;
}

void LocalAdapter::Kill(Job& job) {
  // The worker leads its own process group; its children go too.
  if (::kill(-job.pid, SIGKILL) != 0) ::kill(job.pid, SIGKILL);
}

void LocalAdapter::Cancel(JobId id) {
  auto it = running_.find(id);
  if (it != running_.end()) {
    if (!it->second->cancel_requested) {
      it->second->cancel_requested = true;
      Kill(*it->second);
    }
    return;
  }
  for (auto q = queued_.begin(); q != queued_.end(); ++q) {
    if ((*q)->spec.id == id) {
      JobPtr job = *q;
      queued_.erase(q);
      queued_cores_ -= CoresOf(job->spec);
      PostFailure(job, Cancelled{});
      return;
    }
  }
}

void LocalAdapter::StartQueued() {
  while (!queued_.empty() && Fits(CoresOf(queued_.front()->spec))) {
    JobPtr job = std::move(queued_.front());
    queued_.pop_front();
    queued_cores_ -= CoresOf(job->spec);
    Start(job);
  }
}

namespace {

// Copies `from` to `to` so that `to` appears complete or not at all.
Status CopyAtomically(const std::string& from, const std::string& to) {
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(to).parent_path(),
                                      ec);
  return CopyFileKeepingMode(from, to);
}

}  // namespace

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
  std::error_code ec;
  std::filesystem::remove(host_path, ec);
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

  for (const JobPtr& job : jobs) {
    job->finished = true;
    job->timeout.reset();
    if (job->worker) {
      job->worker.reset();  // killed and reaped
      SandboxPool::Remove(job->sandbox);
    } else if (job->pid > 0) {
      Kill(*job);
      while (::waitpid(job->pid, nullptr, 0) < 0 && errno == EINTR) {
      }
      boost::system::error_code ignored;
      job->pidfd.close(ignored);
      SandboxPool::Remove(job->sandbox);
    }
  }
  sandboxes_.Clear();
  workers_.Clear();
  // Callbacks last: they may call back into the adapter.
  const Seconds now = clock_.Now();
  for (const JobPtr& job : jobs) {
    JobReport report;
    report.id = job->spec.id;
    report.outcome = Cancelled{};
    report.submitted = job->submitted;
    report.started = job->pid > 0 ? job->started : now;
    report.ended = now;
    DoneCallback done = std::move(job->done);
    done(std::move(report));
  }
}

}  // namespace gs
