#include "adapters/agent/agent_adapter.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>
#include <vector>

#include "adapters/agent/agent.h"
#include "adapters/agent/fetched_logs.h"

namespace gs {

using namespace agent;  // NOLINT: the protocol's message names

namespace {

std::string Secs(Seconds s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", s);
  return buf;
}

// Cuts the file at `path` to its last `limit` bytes; true when it did.
// A file that cannot be read or written is left as it came.
bool KeepTail(const std::string& path, uint64_t limit) {
  std::string data;
  {
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    std::ostringstream all;
    all << in.rdbuf();
    data = all.str();
  }
  if (!CutToTail(&data, limit)) return false;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << data;
  return true;
}

}  // namespace

AgentAdapter::AgentAdapter(boost::asio::io_context& io, Clock& clock,
                           ByteStreamFactory connect,
                           AgentAdapterOptions options)
    : io_(io),
      clock_(clock),
      connect_(std::move(connect)),
      options_(std::move(options)),
      pump_(clock, options_.pump) {
  if (options_.heartbeat_timeout <= 0) {
    options_.heartbeat_timeout = 3 * options_.heartbeat_interval;
  }
}

AgentAdapter::~AgentAdapter() {
  Shutdown();
  *alive_ = false;
}

std::string AgentAdapter::Where() const {
  return "host '" + options_.host_name + "'";
}

std::string AgentAdapter::NotUsable() const {
  std::string why = Where() + " is not connected";
  if (!lost_reason_.empty()) why += " (" + lost_reason_ + ")";
  return why + "; Connect() it again";
}

Status AgentAdapter::Connect() {
  Status result;
  bool finished = false;
  ConnectAsync([&](Status s) {
    result = std::move(s);
    finished = true;
  });
  while (!finished) {
    if (io_.stopped()) io_.restart();
    if (io_.run_one() == 0 && !finished) {
      // Nothing left that could answer (no stream, no timer on `io`).
      Lose(Status::Internal(Where() + ": nothing left to wait for while "
                                      "connecting; does the clock run on this "
                                      "io_context?"));
    }
  }
  return result;
}

void AgentAdapter::ConnectAsync(StatusCallback done) {
  if (state_ == State::kReady) return PostStatus(std::move(done), Status::Ok());
  if (state_ == State::kConnecting) {
    return PostStatus(std::move(done), Status::FailedPrecondition(
                                           Where() + " is already connecting"));
  }
  auto stream = connect_();
  if (!stream.ok()) {
    state_ = State::kLost;
    lost_reason_ = "cannot start the agent: " + stream.status().message();
    return PostStatus(
        std::move(done),
        stream.status().WithContext(Where() + ": cannot start the agent"));
  }
  stream_ = std::move(stream).value();
  state_ = State::kConnecting;
  const uint64_t gen = ++generation_;
  decoder_ = FrameDecoder();
  hello_ = Hello();
  connect_done_ = std::move(done);
  last_heard_ = clock_.Now();
  std::shared_ptr<bool> alive = alive_;
  stream_->Start(
      [this, alive, gen](std::string_view bytes) {
        if (*alive && gen == generation_) OnData(bytes);
      },
      [this, alive, gen](Status why) {
        if (!*alive || gen != generation_) return;
        Lose(why.ok()
                 ? Status::Unavailable(Where() +
                                       ": the agent closed the connection")
                 : why.WithContext(Where() + ": connection to the agent lost"));
      });
  pump_.set_stream(stream_.get());
  Hello hello;
  hello.software = std::string("gsrt ") + AgentSoftwareVersion();
  Send(hello);
  connect_timer_ = clock_.After(options_.connect_timeout, [this] {
    if (state_ != State::kConnecting) return;
    Lose(Status::TimedOut(Where() +
                          ": the agent did not answer the handshake "
                          "within " +
                          Secs(options_.connect_timeout) +
                          " s; is gsrt-agent installed and runnable there?"));
  });
}

int AgentAdapter::FreeSlots() const {
  if (state_ != State::kReady) return 0;
  int busy = static_cast<int>(held_running_.size());
  for (const auto& [id, job] : jobs_) busy += job.cores;
  return std::max(0, static_cast<int>(hello_.slots) - busy);
}

void AgentAdapter::OnData(std::string_view bytes) {
  last_heard_ = clock_.Now();
  decoder_.Append(bytes);
  const uint64_t gen = generation_;
  while (gen == generation_) {
    const uint64_t before = decoder_.consumed();
    auto next = decoder_.Next();
    if (!next.ok()) {
      std::string why = Where() + ": the agent broke the protocol: " +
                        next.status().message();
      if (state_ == State::kConnecting && before == 0) {
        why = Where() + ": what came back is not the gsrt agent protocol (" +
              next.status().message() +
              "); does something print to stdout before the agent starts "
              "(a login banner, .bashrc)?";
      }
      return Lose(Status::Unavailable(why));
    }
    if (!next->has_value()) return;
    Handle(**next);
  }
}

void AgentAdapter::Handle(Message& message) {
  if (state_ == State::kConnecting && !std::holds_alternative<Hello>(message) &&
      !std::holds_alternative<Error>(message)) {
    return Lose(Status::Unavailable(Where() + ": the agent sent " +
                                    TypeName(TypeOf(message)) +
                                    " before HELLO"));
  }
  if (auto* m = std::get_if<Hello>(&message)) return OnHello(*m);
  if (auto* m = std::get_if<Error>(&message)) return OnError(*m);
  if (auto* m = std::get_if<JobFinished>(&message)) {
    return OnJobFinished(std::move(m->report));
  }
  if (auto* m = std::get_if<HeartbeatAck>(&message)) return OnHeartbeatAck(*m);
  if (auto* m = std::get_if<PutDone>(&message)) {
    return FinishTransfer(m->id, Status::Ok());
  }
  if (auto* m = std::get_if<GetChunk>(&message)) return OnGetChunk(*m);
  if (auto* m = std::get_if<GetEnd>(&message)) return OnGetEnd(*m);
  Lose(Status::Unavailable(Where() + ": the agent sent a " +
                           TypeName(TypeOf(message)) +
                           " frame, which only the master sends"));
}

void AgentAdapter::OnHello(const Hello& hello) {
  if (state_ != State::kConnecting) {
    return Lose(Status::Unavailable(Where() + ": the agent sent a second "
                                              "HELLO"));
  }
  Status s = CheckHello(
      hello, "the agent on " + Where() + " (" + hello.software + ")");
  if (!s.ok()) return Lose(s);
  if (hello.slots == 0) {
    return Lose(
        Status::FailedPrecondition(Where() + ": the agent offers 0 slots"));
  }
  hello_ = hello;
  held_running_ =
      std::set<JobId>(hello.held_jobs.begin(), hello.held_jobs.end());
  held_reports_.clear();
  adopted_as_.clear();
  state_ = State::kReady;
  lost_reason_.clear();
  connect_timer_.reset();
  ArmHeartbeat();
  StatusCallback done = std::move(connect_done_);
  connect_done_ = nullptr;
  done(Status::Ok());
}

void AgentAdapter::OnError(const Error& error) {
  if (error.request == 0) {
    return Lose(MakeStatus(error.code, Where() + ": " + error.message));
  }
  pump_.Cancel(error.request);
  auto it = transfers_.find(error.request);
  if (it == transfers_.end()) return;
  const std::string what = it->second.what;
  FinishTransfer(error.request,
                 MakeStatus(error.code, what + ": " + error.message));
}

void AgentAdapter::OnJobFinished(JobReport report) {
  auto it = jobs_.find(report.id);
  if (it == jobs_.end()) {
    // A held job's report, kept until someone takes the job over.
    if (held_running_.erase(report.id) > 0) {
      const JobId id = report.id;
      held_reports_[id] = std::move(report);
    }
    return;  // else not ours (any more)
  }
  Job job = std::move(it->second);
  jobs_.erase(it);
  if (job.report_as != 0) {
    adopted_as_.erase(job.report_as);
    report.id = job.report_as;
  }
  // The agent's clock may differ from ours: keep its durations, anchored
  // at our now.
  const Seconds now = clock_.Now();
  const Seconds shift = now - report.ended;
  report.started = std::clamp(report.started + shift, job.submitted,
                              std::max(now, job.submitted));
  report.submitted = job.submitted;
  report.ended = std::max(now, report.started);
  if (FetchLogs(report, job.done)) return;
  job.done(std::move(report));
}

bool AgentAdapter::FetchLogs(JobReport& report, DoneCallback& done) {
  if (options_.fetch_logs_to.empty() || options_.shares_master_files) {
    return false;
  }
  std::string* log_dir = nullptr;
  if (auto* e = std::get_if<Exited>(&report.outcome); e && !e->succeeded()) {
    log_dir = &e->log_dir;
  } else if (auto* t = std::get_if<TimedOut>(&report.outcome)) {
    log_dir = &t->log_dir;
  }
  if (log_dir == nullptr || log_dir->empty()) return false;
  struct Fetching {
    JobReport report;
    DoneCallback done;
    FetchedLogs logs;
    std::string dir;  // on the master
    int pending = 0;
  };
  auto f = std::make_shared<Fetching>();
  f->logs.host =
      options_.logs_host.empty() ? options_.host_name : options_.logs_host;
  f->logs.host_dir = *log_dir;
  f->dir = FetchedLogsDir(options_.fetch_logs_to, f->logs.host, *log_dir);
  f->report = std::move(report);
  f->done = std::move(done);
  // Its log_dir and note: on the master when every log came (or was not
  // there), else still on the host.
  auto finish = [f] {
    std::string* dir = nullptr;
    std::string* note = nullptr;
    if (auto* e = std::get_if<Exited>(&f->report.outcome)) {
      dir = &e->log_dir;
      note = &e->log_note;
    } else {
      auto& t = std::get<TimedOut>(f->report.outcome);
      dir = &t.log_dir;
      note = &t.log_note;
    }
    if (f->logs.why_not.empty()) *dir = f->dir;
    *note = FetchedLogsNote(f->logs);
    f->done(std::move(f->report));
  };
  std::error_code ec;
  if (state_ != State::kReady) {
    f->logs.unreachable = true;
    f->logs.why_not = NotUsable();
  } else if (hello_.minor < 4) {
    f->logs.why_not = "its agent speaks protocol 2." +
                      std::to_string(hello_.minor) +
                      ", which cannot send only the end of a log";
  } else if (std::filesystem::create_directories(f->dir, ec); ec) {
    f->logs.why_not = "cannot create " + f->dir + ": " + ec.message();
  }
  if (!f->logs.why_not.empty()) {
    boost::asio::post(io_, finish);
    return true;
  }
  // Owner only, like the rest of failed/: logs may hold user data.
  for (const std::string& d :
       {options_.fetch_logs_to,
        FetchedLogsDir(options_.fetch_logs_to, f->logs.host, "")}) {
    std::filesystem::permissions(d, std::filesystem::perms::owner_all,
                                 std::filesystem::perm_options::replace, ec);
  }
  f->pending = static_cast<int>(std::size(kFetchedLogs));
  for (const char* name : kFetchedLogs) {
    const std::string to = f->dir + "/" + name;
    // One byte more than is kept tells whether the log was longer.
    Fetch(f->logs.host_dir + "/" + name, to, kFetchedLogBytes + 1,
          [f, finish, name, to](Status s) {
            if (s.ok()) {
              if (KeepTail(to, kFetchedLogBytes)) f->logs.cut.push_back(name);
            } else if (s.code() != Status::Code::kNotFound &&
                       f->logs.why_not.empty()) {
              // (Cancelled: the run ended first, the host is not to blame.)
              f->logs.unreachable = s.code() == Status::Code::kUnavailable ||
                                    s.code() == Status::Code::kTimedOut;
              f->logs.why_not = s.message();
            }
            if (--f->pending == 0) finish();
          });
  }
  return true;
}

void AgentAdapter::OnGetChunk(const GetChunk& chunk) {
  auto it = transfers_.find(chunk.id);
  if (it == transfers_.end() || !it->second.file) return;
  Status s = it->second.file->Append(chunk.data);
  if (s.ok()) return;
  Send(Error{chunk.id, s.code(), "the master gave up: " + s.message()});
  FinishTransfer(chunk.id, s.WithContext(it->second.what));
}

void AgentAdapter::OnGetEnd(const GetEnd& end) {
  auto it = transfers_.find(end.id);
  if (it == transfers_.end() || !it->second.file) return;
  Status s = it->second.file->Commit(end.size, end.hash);
  FinishTransfer(end.id, s.ok() ? s : s.WithContext(it->second.what));
}

void AgentAdapter::FinishTransfer(uint64_t id, Status s) {
  auto it = transfers_.find(id);
  if (it == transfers_.end()) return;
  StatusCallback done = std::move(it->second.done);
  transfers_.erase(it);
  done(std::move(s));
}

void AgentAdapter::Send(const Message& message) {
  if (stream_) stream_->Write(Encode(message));
}

void AgentAdapter::ArmHeartbeat() {
  if (options_.heartbeat_interval <= 0) return;
  heartbeat_timer_ = clock_.After(options_.heartbeat_interval, [this] {
    if (state_ != State::kReady) return;
    const Seconds silent = clock_.Now() - last_heard_;
    if (silent > options_.heartbeat_timeout) {
      return Lose(Status::Unavailable(
          Where() + ": the agent did not answer for " + Secs(silent) +
          " s (heartbeat timeout " + Secs(options_.heartbeat_timeout) + " s)"));
    }
    Send(Heartbeat{++heartbeat_seq_});
    ArmHeartbeat();
  });
}

void AgentAdapter::Lose(const Status& why) {
  if (state_ != State::kConnecting && state_ != State::kReady) return;
  Drop(State::kLost, why, HostFailed{why.message()});
}

void AgentAdapter::Drop(State next, const Status& why, JobOutcome outcome) {
  const bool was_connecting = state_ == State::kConnecting;
  state_ = next;
  ++generation_;
  lost_reason_ = why.message();
  connect_timer_.reset();
  heartbeat_timer_.reset();
  pump_.Clear();
  pump_.set_stream(nullptr);
  if (stream_) {
    stream_->Close();
    // We may be inside one of its callbacks: destroy it later.
    boost::asio::post(io_,
                      [s = std::shared_ptr<ByteStream>(std::move(stream_))] {});
  }
  auto jobs = std::move(jobs_);
  jobs_.clear();
  auto transfers = std::move(transfers_);
  transfers_.clear();
  auto probes = std::move(probes_);
  probes_.clear();
  // Callbacks last, our state settled: they may call back in.
  if (was_connecting && connect_done_) {
    StatusCallback done = std::move(connect_done_);
    connect_done_ = nullptr;
    done(why);
  }
  const Seconds now = clock_.Now();
  held_running_.clear();
  held_reports_.clear();
  adopted_as_.clear();
  for (auto& [id, job] : jobs) {
    JobReport report;
    report.id = job.report_as != 0 ? job.report_as : id;
    report.outcome = outcome;
    report.submitted = job.submitted;
    report.started = job.submitted;
    report.ended = std::max(now, job.submitted);
    job.done(std::move(report));
  }
  for (auto& [id, transfer] : transfers) {
    transfer.done(why.WithContext(transfer.what));
  }
  for (auto& [seq, probe] : probes) probe.done(why.WithContext("probe"));
}

void AgentAdapter::Submit(JobSpec spec, DoneCallback done) {
  const Seconds now = clock_.Now();
  JobReport report;
  report.id = spec.id;
  report.submitted = report.started = report.ended = now;
  if (state_ != State::kReady) {
    report.outcome = HostFailed{NotUsable()};
    return PostReport(std::move(done), std::move(report));
  }
  if (jobs_.count(spec.id)) {
    Exited e;
    e.code = 127;
    e.error = "job " + std::to_string(spec.id) + " is already running on " +
              Where() + "; job ids must be unique";
    report.outcome = e;
    return PostReport(std::move(done), std::move(report));
  }
  if (!spec.env.empty() && hello_.minor < 5) {
    // An agent of an older gsrt cannot read a job's environment: its GPU
    // jobs would run without their devices named.
    Exited e;
    e.code = 127;
    e.error = Where() + " runs gsrt-agent protocol 2." +
              std::to_string(hello_.minor) +
              ", which cannot pass a job its GPUs; install this gsrt's "
              "gsrt-agent there";
    report.outcome = e;
    return PostReport(std::move(done), std::move(report));
  }
  // Devices the master named travel in the environment; the count alone
  // asks the agent to name its own (a pilot's allocation's, protocol 2.6).
  const bool named =
      std::any_of(spec.env.begin(), spec.env.end(), [](const std::string& e) {
        return e.rfind("CUDA_VISIBLE_DEVICES=", 0) == 0;
      });
  if (named) spec.gpus = 0;
  if (spec.gpus > 0 && hello_.minor < 6) {
    Exited e;
    e.code = 127;
    e.error = Where() + " runs gsrt-agent protocol 2." +
              std::to_string(hello_.minor) +
              ", which cannot hand a job GPUs of its own; install this "
              "gsrt's gsrt-agent there";
    report.outcome = e;
    return PostReport(std::move(done), std::move(report));
  }
  jobs_[spec.id] = Job{std::move(done), now, std::max(1, spec.cores)};
  Send(RunJob{std::move(spec)});
}

void AgentAdapter::Cancel(JobId id) {
  if (auto it = adopted_as_.find(id); it != adopted_as_.end()) id = it->second;
  if (state_ == State::kReady && jobs_.count(id)) Send(agent::Cancel{id});
}

std::vector<JobId> AgentAdapter::held_jobs() const {
  std::vector<JobId> ids(held_running_.begin(), held_running_.end());
  for (const auto& [id, report] : held_reports_) ids.push_back(id);
  return ids;
}

bool AgentAdapter::Holds(JobId old_id) const {
  return state_ == State::kReady &&
         (held_running_.count(old_id) > 0 || held_reports_.count(old_id) > 0);
}

void AgentAdapter::AdoptHeld(JobId old_id, const JobSpec& spec,
                             DoneCallback done) {
  const Seconds now = clock_.Now();
  if (auto it = held_reports_.find(old_id); it != held_reports_.end()) {
    JobReport report = std::move(it->second);
    held_reports_.erase(it);
    // It ended while no master listened: its times are the agent's, and
    // only its duration is kept, ending now.
    const Seconds ran = std::max<Seconds>(0, report.ended - report.started);
    report.id = spec.id;
    report.submitted = now;
    report.ended = now;
    report.started = std::max<Seconds>(now - ran, 0);
    report.submitted = std::min(report.submitted, report.started);
    PostReport(std::move(done), std::move(report));
    return;
  }
  held_running_.erase(old_id);
  adopted_as_[spec.id] = old_id;
  jobs_[old_id] = Job{std::move(done), now, std::max(1, spec.cores), spec.id};
}

void AgentAdapter::DropHeld(JobId old_id) {
  held_reports_.erase(old_id);
  if (held_running_.erase(old_id) > 0 && state_ == State::kReady) {
    Send(agent::Cancel{old_id});
  }
}

void AgentAdapter::Shutdown() {
  if (state_ == State::kReady) Send(agent::Shutdown{});
  Drop(State::kShutDown, Status::Cancelled(Where() + " was shut down"),
       Cancelled{});
}

void AgentAdapter::Put(std::string master_path, std::string host_path,
                       StatusCallback done) {
  const std::string what =
      "put '" + master_path + "' to " + Where() + " as '" + host_path + "'";
  if (state_ != State::kReady) {
    return PostStatus(std::move(done),
                      Status::Unavailable(what + ": " + NotUsable()));
  }
  const int fd = ::open(master_path.c_str(), O_RDONLY | O_CLOEXEC);
  struct stat st {};
  if (fd < 0 || ::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    const int err = fd < 0 ? errno : EINVAL;
    if (fd >= 0) ::close(fd);
    return PostStatus(std::move(done),
                      Status::FromErrno(what + ": cannot read the file", err));
  }
  const uint64_t id = next_transfer_++;
  transfers_[id] = Transfer{std::move(done), nullptr, what};
  Send(PutBegin{id, std::move(host_path), static_cast<uint64_t>(st.st_size)});
  std::shared_ptr<bool> alive = alive_;
  const uint64_t gen = generation_;
  pump_.Add(id, fd, MessageType::kPutChunk, MessageType::kPutEnd,
            [this, alive, gen, id](Status s) {
              if (s.ok()) return;  // PUT_DONE or ERROR will answer
              // May run inside Put(): report from the io_context.
              boost::asio::post(io_, [this, alive, gen, id, s] {
                if (*alive && gen == generation_) FinishTransfer(id, s);
              });
            });
}

void AgentAdapter::Get(std::string host_path, std::string master_path,
                       StatusCallback done) {
  Fetch(std::move(host_path), std::move(master_path), 0, std::move(done));
}

void AgentAdapter::Fetch(std::string host_path, std::string master_path,
                         uint64_t tail, StatusCallback done) {
  const std::string what =
      "get '" + host_path + "' from " + Where() + " to '" + master_path + "'";
  if (state_ != State::kReady) {
    return PostStatus(std::move(done),
                      Status::Unavailable(what + ": " + NotUsable()));
  }
  auto file = IncomingFile::Create(master_path);
  if (!file.ok()) {
    return PostStatus(std::move(done), file.status().WithContext(what));
  }
  const uint64_t id = next_transfer_++;
  transfers_[id] = Transfer{std::move(done), std::move(file).value(), what};
  Send(GetRequest{id, std::move(host_path), tail});
}

void AgentAdapter::Remove(std::string host_path) {
  if (state_ == State::kReady) Send(agent::Remove{std::move(host_path)});
}

void AgentAdapter::Sweep(std::string owner, std::vector<std::string> keep) {
  if (state_ != State::kReady || hello_.minor < 3) return;
  Send(agent::Sweep{std::move(owner), std::move(keep)});
}

void AgentAdapter::PostReport(DoneCallback done, JobReport report) {
  boost::asio::post(
      io_, [done = std::move(done), report = std::move(report)]() mutable {
        done(std::move(report));
      });
}

void AgentAdapter::PostStatus(StatusCallback done, Status s) {
  boost::asio::post(io_,
                    [done = std::move(done), s = std::move(s)] { done(s); });
}

void AgentAdapter::Probe(ProbeCallback done) {
  if (state_ != State::kReady) {
    boost::asio::post(
        io_, [done = std::move(done), why = Status::Unavailable(NotUsable())] {
          done(why);
        });
    return;
  }
  const uint64_t seq = ++heartbeat_seq_;
  probes_[seq] = PendingProbe{clock_.Now(), std::move(done)};
  Send(Heartbeat{seq});
}

void AgentAdapter::OnHeartbeatAck(const HeartbeatAck& ack) {
  auto it = probes_.find(ack.seq);
  if (it == probes_.end()) return;  // a periodic heartbeat's
  PendingProbe probe = std::move(it->second);
  probes_.erase(it);
  HostProbe p;
  p.rtt = clock_.Now() - probe.sent;
  p.cores = hello_.cores;
  p.memory_total = hello_.memory_total;
  p.memory_available = hello_.memory_available;  // as of HELLO
  p.load1 = ack.load1;
  probe.done(p);
}

}  // namespace gs
