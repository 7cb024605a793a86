#include "adapters/local/local_job.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <boost/asio/post.hpp>
#include <boost/asio/read.hpp>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

#include "adapters/local/job_files.h"
#include "runtime/base/process_spawn.h"
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

// Why spawning `worker` failed; access(2) tells a missing file from one
// that cannot be executed (a question about exec, not the job's files).
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

bool IsInput(JobParam::Kind kind) {
  return kind == JobParam::Kind::kFileIn || kind == JobParam::Kind::kFileInOut;
}

timeval FromMicroseconds(int64_t us) {
  timeval tv;
  tv.tv_sec = us / 1000000;
  tv.tv_usec = us % 1000000;
  return tv;
}

}  // namespace

Exited NotStarted(std::string error) {
  Exited e;
  e.code = 127;
  e.error = std::move(error);
  return e;
}

LocalJob::LocalJob(const LocalJobHost& host, JobSpec spec, DoneCallback done,
                   Seconds submitted)
    : host_(host),
      fs_(*host.fs),
      spec_(std::move(spec)),
      done_(std::move(done)),
      pidfd_(*host.io),
      submitted_(submitted) {}

int LocalJob::cores() const { return std::max(1, spec_.cores); }

std::optional<JobOutcome> LocalJob::Stage() {
  // Built for the sandbox the pool will hand out (a pooled one keeps the
  // name it was made with), before any is taken: a job that cannot start
  // touches no directory.
  const std::string fresh = host_.jobs_dir + "/" + std::to_string(spec_.id);
  auto cmd = BuildWorkerCommand(spec_, host_.sandboxes->NextPath(fresh));
  if (!cmd.ok()) return NotStarted(cmd.status().message());
  cmd_ = std::move(cmd).value();
  std::vector<std::string> absent_inputs;
  if (auto failed = SizeInputs(&absent_inputs)) return failed;
  // A pooled worker marks the old result itself (ServeReply).
  const bool mark_stale = host_.mode == WorkerMode::kProcess;
  auto sandbox = host_.sandboxes->Acquire(fresh, mark_stale);
  if (!sandbox.ok()) {
    return HostFailed{"host '" + host_.host_name +
                      "': " + sandbox.status().message()};
  }
  sandbox_ = std::move(sandbox).value();
  if (auto failed = CopyInouts(absent_inputs)) return failed;
  ChooseOpenMpThreads();
  return std::nullopt;
}

std::optional<JobOutcome> LocalJob::SizeInputs(
    std::vector<std::string>* absent) {
  for (size_t i = 0; i < spec_.params.size(); ++i) {
    const JobParam& p = spec_.params[i];
    if (!IsInput(p.kind)) continue;
    auto info = fs_.Examine(p.source);
    // An input that does not exist is passed through, as a sequential run
    // would see it: the function decides (an append creates the file).
    if (!info.ok() && info.status().code() == Status::Code::kNotFound) {
      absent->push_back(p.source);
      continue;
    }
    if (!info.ok()) {
      return NotStarted("input file of parameter " + std::to_string(i) +
                        " is not readable on host '" + host_.host_name +
                        "': " + info.status().message());
    }
    bytes_in_ += info->size;
  }
  return std::nullopt;
}

std::optional<JobOutcome> LocalJob::CopyInouts(
    const std::vector<std::string>& absent) {
  for (const OutputMove& out : cmd_.outputs) {
    if (out.source.empty()) continue;
    if (std::find(absent.begin(), absent.end(), out.source) != absent.end()) {
      continue;  // the worker starts without the file
    }
    if (Status s = fs_.CopyFile(out.source, out.temp); !s.ok()) {
      DropSandbox();
      return NotStarted("cannot stage inout file of parameter " +
                        std::to_string(out.param_index) + ": " + s.message());
    }
  }
  return std::nullopt;
}

bool LocalJob::NamesDevices() const {
  return std::any_of(spec_.env.begin(), spec_.env.end(),
                     [](const std::string& e) {
                       return e.rfind("CUDA_VISIBLE_DEVICES=", 0) == 0;
                     });
}

void LocalJob::GiveDevices(const std::string& devices) {
  spec_.env.push_back("CUDA_VISIBLE_DEVICES=" + devices);
  spec_.env.push_back("GSRT_GPUS=" + devices);
}

void LocalJob::ChooseOpenMpThreads() {
  // A k-core job's OpenMP runtime uses its k cores, unless the user chose
  // (in the master's environment or the job's); in the job's environment,
  // so that a persistent worker serves it only with the same setting.
  const bool omp_chosen =
      std::getenv("OMP_NUM_THREADS") != nullptr ||
      std::any_of(spec_.env.begin(), spec_.env.end(), [](const std::string& e) {
        return e.rfind("OMP_NUM_THREADS=", 0) == 0;
      });
  if (spec_.cores > 1 && !omp_chosen) {
    spec_.env.push_back("OMP_NUM_THREADS=" + std::to_string(spec_.cores));
  }
}

std::optional<JobOutcome> LocalJob::Launch(Ended ended) {
  ended_ = std::move(ended);
  return host_.mode == WorkerMode::kProcess ? Spawn() : Serve();
}

std::optional<JobOutcome> LocalJob::Spawn() {
  static const WorkerLaunch kPlain;
  const WorkerLaunch& launch = host_.launch ? *host_.launch : kPlain;
  const std::vector<std::string> argv = launch.launcher.empty()
                                            ? std::vector<std::string>{}
                                            : launch.Argv(cmd_.argv);
  SpawnRequest req;
  req.argv = argv.empty() ? &cmd_.argv : &argv;
  req.base_env = launch.BaseEnvironment();
  req.cwd = sandbox_;
  req.in.fd = host_.devnull_fd;
  req.out.file = SandboxPool::kStdout;
  req.err.file = SandboxPool::kStderr;
  req.env = &spec_.env;
  auto proc = SpawnProcess(req);
  if (!proc.ok()) {
    DropSandbox();
    return NotStarted(
        CannotStart(spec_.worker, host_.host_name, proc.status()));
  }
  pid_ = proc->pid;
  boost::system::error_code ec;
  pidfd_.assign(proc->pidfd, ec);
  if (ec) {
    // Cannot watch it (reactor trouble): stop it now rather than lose it.
    ::close(proc->pidfd);
    Kill();
    ::waitpid(pid_, nullptr, 0);
    DropSandbox();
    return HostFailed{"host '" + host_.host_name +
                      "': cannot watch worker process: " + ec.message()};
  }
  WaitForExit();
  return std::nullopt;
}

std::optional<JobOutcome> LocalJob::Serve() {
  ServeRequest request;
  request.cwd = sandbox_;
  request.env = spec_.env;
  request.args.assign(cmd_.argv.begin() + 1, cmd_.argv.end());
  auto frame = EncodeServeRequest(request);
  if (!frame.ok()) {
    DropSandbox();
    return NotStarted(frame.status().message());
  }
  // An idle worker may have died since its last job (killed from outside):
  // a second, fresh one gets the job.
  Status sent;
  int fresh_status = -1;
  for (int attempt = 0; attempt < 2; ++attempt) {
    auto worker =
        host_.workers->Take(spec_.worker, spec_.env, host_.devnull_fd);
    if (!worker.ok()) {
      DropSandbox();
      return NotStarted(
          CannotStart(spec_.worker, host_.host_name, worker.status()));
    }
    worker_ = std::move(worker).value();
    sent = worker_->Send(*frame);
    if (sent.ok()) break;
    // A fresh worker that exits at once (one that does not know `serve`)
    // may break the pipe before its first request: its status says why.
    pid_ = worker_->pid();
    fresh_status = worker_->jobs() == 0 ? worker_->Stop() : -1;
    worker_.reset();
  }
  if (!sent.ok() && ExitedBeforeServing(fresh_status)) {
    note_ = CannotServeNote(host_.mode == WorkerMode::kFork);
    boost::asio::post(*host_.io,
                      [job = shared_from_this(), status = fresh_status] {
                        if (!job->finished_) job->ended_(job, true, status, 0);
                      });
    return std::nullopt;
  }
  if (!sent.ok()) {
    DropSandbox();
    return HostFailed{"host '" + host_.host_name + "': " + sent.message()};
  }
  pid_ = worker_->pid();
  boost::asio::async_read(
      worker_->Channel(*host_.io), boost::asio::buffer(reply_),
      [job = shared_from_this()](const boost::system::error_code& ec, size_t) {
        if (job->finished_) return;  // taken by Shutdown
        job->OnReply(ec);
      });
  return std::nullopt;
}

void LocalJob::OnReply(const boost::system::error_code& ec) {
  std::unique_ptr<PersistentWorker> worker = std::move(worker_);
  const bool forked = host_.mode == WorkerMode::kFork;
  if (ec || cancel_requested_ || timed_out_) {
    // It died mid-job (crash, exit() in the user's code) or was killed
    // for a timeout or a cancel: its wait status is the job's, as in
    // process mode, and it never serves again. A fork server's child is
    // in its process group and dies with it.
    const bool first_job = worker->jobs() == 0;
    const int status = worker->Stop();
    if (first_job && ExitedBeforeServing(status)) {
      note_ = CannotServeNote(forked);
    } else if (forked && !cancel_requested_ && !timed_out_) {
      note_ = " (its fork server died; a fresh one serves the next job)";
    }
    return ended_(shared_from_this(), status != -1, status, ECHILD);
  }
  const ServeReply reply = DecodeServeReply(reply_);
  int64_t user_us = 0, system_us = 0;
  worker->Answered(reply, &user_us, &system_us);
  usage_.ru_utime = FromMicroseconds(user_us);
  usage_.ru_stime = FromMicroseconds(system_us);
  usage_.ru_maxrss = reply.max_rss_kb;
  host_.workers->Give(std::move(worker), reply.max_rss_kb,
                      host_.max_idle_workers);
  left_ = reply;
  // A fork server reports its child's wait status; `serve` an exit code.
  const int status = forked ? reply.code : (reply.code & 0xff) << 8;
  ended_(shared_from_this(), true, status, 0);
}

void LocalJob::WaitForExit() {
  pidfd_.async_wait(
      boost::asio::posix::stream_descriptor::wait_read,
      [job = shared_from_this()](const boost::system::error_code&) {
        // A job taken by Shutdown (maybe with the adapter
        // gone) is done.
        if (job->finished_) return;
        job->OnExit();
      });
}

void LocalJob::OnExit() {
  int status = 0;
  pid_t r;
  do {
    r = ::wait4(pid_, &status, WNOHANG, &usage_);
  } while (r < 0 && errno == EINTR);
  if (r == 0) return WaitForExit();  // woken before the exit
  ended_(shared_from_this(), r >= 0, status, errno);
}

void LocalJob::Began(Seconds now, std::unique_ptr<Timer> timeout) {
  started_ = now;
  timeout_ = std::move(timeout);
}

void LocalJob::TimeOut() {
  if (cancel_requested_) return;
  timed_out_ = true;
  Kill();
}

void LocalJob::Cancel() {
  if (cancel_requested_) return;
  cancel_requested_ = true;
  Kill();
}

void LocalJob::Kill() {
  if (pid_ <= 0) return;  // nothing started: kill(-1) would hit everyone
  // The worker leads its own process group; its children go too.
  if (::kill(-pid_, SIGKILL) != 0) ::kill(pid_, SIGKILL);
}

JobReport LocalJob::Conclude(bool reaped, int status, int wait_errno) {
  finished_ = true;
  timeout_.reset();
  boost::system::error_code ignored;
  pidfd_.close(ignored);

  JobReport report;
  report.id = spec_.id;
  report.submitted = submitted_;
  report.started = started_;
  // A pooled worker that never answered may have died before it marked
  // an earlier job's result stale: that one is not this job's.
  if (host_.mode != WorkerMode::kProcess && !left_) {
    (void)fs_.Remove(cmd_.result_path);
  }
  if (!reaped) {
    report.outcome = HostFailed{
        "lost the exit status of worker pid " + std::to_string(pid_) +
        " on host '" + host_.host_name + "' (" + std::strerror(wait_errno) +
        "); is SIGCHLD ignored or another thread reaping children?"};
    DropSandbox();
  } else if (cancel_requested_) {
    report.outcome = Cancelled{};
    DropSandbox();
  } else if (timed_out_) {
    // What it printed before it was killed is what explains the timeout.
    RemoveIfStale(fs_, cmd_.result_path);
    report.outcome = TimedOut{spec_.timeout, KeepEvidence()};
  } else {
    Exited exited = Collect(status);
    if (!exited.succeeded()) {
      RemoveIfStale(fs_, cmd_.result_path);
      exited.log_dir = KeepEvidence();
      exited.error += note_;
    }
    report.outcome = std::move(exited);
  }
  return report;
}

Exited LocalJob::Collect(int status) {
  Exited e;
  e.usage.user_cpu = ToSeconds(usage_.ru_utime);
  e.usage.system_cpu = ToSeconds(usage_.ru_stime);
  e.usage.max_rss_kb = usage_.ru_maxrss;
  e.bytes_in = bytes_in_;
  e.log_dir = sandbox_;  // kept unless everything below succeeds
  if (WIFSIGNALED(status)) {
    e.code = 128 + WTERMSIG(status);
    e.error = SignalText(WTERMSIG(status)) + FullDiskNote(fs_, sandbox_);
    return e;
  }
  e.code = WEXITSTATUS(status);
  if (e.code != 0) {
    e.error = ExitError(e.code);
    return e;
  }
  for (const OutputMove& out : cmd_.outputs) {
    auto info = fs_.Examine(out.temp);
    if (!info.ok()) {
      e.error = "declared output '" + out.dest + "' (parameter " +
                std::to_string(out.param_index) + ") was not written";
      return e;
    }
    e.bytes_out += info->size;
  }
  auto results = ReadResult();
  if (!results.ok()) {
    e.error = "the worker exited 0 but its result file is unusable: " +
              results.status().message();
    return e;
  }
  e.results = std::move(results).value();
  for (const OutputMove& out : cmd_.outputs) {
    Status s = fs_.RenameWith(out.temp, out.dest, JobFileReplace());
    if (!s.ok()) {
      e.error = "output of parameter " + std::to_string(out.param_index) +
                " could not be put in place: " + s.message();
      return e;
    }
  }
  KeepLogs(e);
  return e;
}

std::string LocalJob::ExitError(int code) {
  // A function that threw left its message in the result file.
  auto file = ReadResult();
  if (file.ok()) {
    if (auto what = DecodeThrown(*file)) {
      return ThrownError(spec_.operation, *what);
    }
  }
  return "exit code " + std::to_string(code) + FullDiskNote(fs_, sandbox_);
}

StatusOr<std::string> LocalJob::ReadResult() {
  if (left_ && left_->result_bytes < 0) {
    return Status::NotFound("'" + cmd_.result_path + "' was not written");
  }
  if (left_ && left_->result_bytes == 0) return std::string();
  return ReadResultFile(fs_, cmd_.result_path, kMaxResultBytes);
}

bool LocalJob::KnownClean() const {
  // Collect found every output's temporary, each a file of the sandbox.
  return left_ &&
         left_->other_files == static_cast<int32_t>(cmd_.outputs.size());
}

void LocalJob::KeepLogs(Exited& e) {
  e.log_dir.clear();
  const std::string id = std::to_string(spec_.id);
  // Each stream with its size as the worker reported it (-1: unknown).
  const std::pair<const char*, int64_t> streams[] = {
      {SandboxPool::kStdout, left_ ? left_->stdout_bytes : -1},
      {SandboxPool::kStderr, left_ ? left_->stderr_bytes : -1}};
  for (const auto& [stream, reported] : streams) {
    if (reported == 0) continue;  // the worker saw it empty
    const std::string path = sandbox_ + "/" + stream;
    auto info = fs_.Examine(path);
    if (!info.ok() || info->size == 0) continue;
    const std::string kept = host_.logs_dir + "/job-" + id + "." + stream;
    // A log that cannot be kept is not worth failing a finished job.
    if (fs_.RenameWith(path, kept, JobFileReplace()).ok()) {
      e.log_dir = host_.logs_dir;
    }
  }
  host_.sandboxes->Release(sandbox_, KnownClean());
}

std::string LocalJob::KeepEvidence() {
  auto kept = host_.evidence->Keep(
      sandbox_, EvidenceName(spec_.task, spec_.operation, spec_.id));
  // Left in place, the next job with its id would empty it: say so.
  if (!kept.ok()) {
    Sayf(*host_.messages, MessageKind::kWarning, "gsrt: host '%s': %s\n",
         host_.host_name.c_str(), kept.status().message().c_str());
    return sandbox_;
  }
  return *kept;
}

void LocalJob::DropSandbox() { host_.sandboxes->Remove(sandbox_); }

void LocalJob::Abandon() {
  finished_ = true;
  timeout_.reset();
  if (worker_) {
    worker_.reset();  // killed and reaped
    DropSandbox();
  } else if (pid_ > 0) {
    Kill();
    while (::waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
    }
    boost::system::error_code ignored;
    pidfd_.close(ignored);
    DropSandbox();
  }
}

JobReport LocalJob::ReportOf(JobOutcome outcome, Seconds now) const {
  JobReport report;
  report.id = spec_.id;
  report.outcome = std::move(outcome);
  report.submitted = submitted_;
  report.started = started_ > 0 ? started_ : now;
  report.ended = now;
  return report;
}

void LocalJob::Deliver(JobReport report) {
  DoneCallback done = std::move(done_);
  done(std::move(report));
}

void LocalJob::Post(JobReport report) {
  finished_ = true;
  // Captures no job or adapter: it may run after both are gone.
  boost::asio::post(*host_.io,
                    [done = std::move(done_), report = std::move(report)]() {
                      done(report);
                    });
}

}  // namespace gs
