#include "adapters/agent/agent.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <utility>

#include "adapters/agent/work_dir_sweep.h"

#ifndef GSRT_VERSION
#define GSRT_VERSION "0.1.0"
#endif

namespace gs {

using namespace agent;  // NOLINT: the protocol's message names

const char* AgentSoftwareVersion() { return GSRT_VERSION; }

namespace {

template <class... Fs>
struct Overloaded : Fs... {
  using Fs::operator()...;
};
template <class... Fs>
Overloaded(Fs...) -> Overloaded<Fs...>;

}  // namespace

Agent::Agent(ByteStream& stream, Adapter& runner, Clock& clock,
             AgentOptions options)
    : stream_(&stream),
      runner_(runner),
      clock_(clock),
      options_(std::move(options)),
      pump_(clock, options_.pump) {
  pump_.set_stream(stream_);
  if (options_.messages == nullptr) options_.messages = &StderrMessages();
}

Agent::~Agent() {
  *alive_ = false;
  if (!finished_) {
    finished_ = true;
    runner_.Shutdown();
  }
}

void Agent::Start(ExitCallback on_exit, ExitCallback on_detached) {
  on_exit_ = std::move(on_exit);
  on_detached_ = std::move(on_detached);
  runner_status_ = runner_.Connect();
  ListenTo(*stream_);
}

void Agent::ListenTo(ByteStream& stream) {
  stream_ = &stream;
  pump_.set_stream(stream_);
  last_heard_ = clock_.Now();
  const uint64_t gen = ++stream_generation_;
  std::shared_ptr<bool> alive = alive_;
  stream_->Start(
      [this, alive, gen](std::string_view bytes) {
        if (*alive && gen == stream_generation_) OnData(bytes);
      },
      [this, alive, gen](Status why) {
        if (!*alive || gen != stream_generation_) return;
        if (!options_.outlive_master) {
          return Finish(why.ok() ? why
                                 : why.WithContext("connection to the master"));
        }
        // An end without SHUTDOWN: the master is gone; a pilot's agent
        // waits for the next one.
        LoseMaster(why.ok() ? Status::Unavailable(
                                  "the master closed the connection without "
                                  "SHUTDOWN")
                            : why.WithContext("connection to the master"));
      });
  ArmWatchdog();
}

void Agent::LoseMaster(Status why) {
  if (finished_ || detached_) return;
  if (!options_.outlive_master) return Finish(std::move(why));
  Detach(std::move(why));
}

void Agent::Detach(Status why) {
  detached_ = true;
  hello_done_ = false;
  ++stream_generation_;
  // A master that merely fell silent learns at once that we left.
  stream_->Close();
  watchdog_.reset();
  pump_.Clear();
  pump_.set_stream(nullptr);
  uploads_.clear();
  decoder_ = agent::FrameDecoder();
  // The lost master may not have recorded these yet.
  const Seconds now = clock_.Now();
  for (SentReport& r : recent_reports_) {
    if (r.at >= now - kRecentReports) {
      held_reports_.push_back(std::move(r.report));
    }
  }
  recent_reports_.clear();
  Log(MessageKind::kWarning, why.ToString() + "; " +
                                 std::to_string(running_.size()) +
                                 " job(s) go on, waiting for the next master");
  if (on_detached_) on_detached_(std::move(why));
}

void Agent::Reattach(ByteStream& stream) {
  if (finished_) return;
  detached_ = false;
  ListenTo(stream);
}

void Agent::Stop(Status why) { Finish(std::move(why)); }

void Agent::ArmWatchdog() {
  if (options_.heartbeat <= 0 || finished_) return;
  watchdog_ = clock_.After(options_.heartbeat, [this] {
    const Seconds silent = clock_.Now() - last_heard_;
    if (silent > 3 * options_.heartbeat) {
      return LoseMaster(Status::Unavailable(
          "nothing from the master for " + std::to_string(silent) +
          " s (it promised a heartbeat every " +
          std::to_string(options_.heartbeat) + " s); taking it for lost"));
    }
    ArmWatchdog();
  });
}

void Agent::OnData(std::string_view bytes) {
  if (finished_) return;
  last_heard_ = clock_.Now();
  decoder_.Append(bytes);
  while (!finished_) {
    auto next = decoder_.Next();
    if (!next.ok()) return Fail(next.status().WithContext("from the master"));
    if (!next->has_value()) return;
    Handle(**next);
  }
}

void Agent::Handle(Message& message) {
  if (!hello_done_ && !std::holds_alternative<Hello>(message)) {
    return Fail(Status::InvalidArgument(std::string("the master sent ") +
                                        TypeName(TypeOf(message)) +
                                        " before HELLO"));
  }
  auto unexpected = [this](const auto& m) {
    Fail(Status::InvalidArgument(std::string("the agent does not take ") +
                                 TypeName(TypeOf(Message(m))) + " frames"));
  };
  std::visit(
      Overloaded{
          [&](Hello& m) { OnHello(m); },
          [&](RunJob& m) { OnRunJob(std::move(m.spec)); },
          [&](Cancel& m) { runner_.Cancel(m.job); },
          [&](Heartbeat& m) {
            Send(HeartbeatAck{m.seq, static_cast<uint32_t>(running_.size()),
                              ReadLoad1()});
          },
          [&](PutBegin& m) { OnPutBegin(m); },
          [&](PutChunk& m) { OnPutChunk(m); },
          [&](PutEnd& m) { OnPutEnd(m); },
          [&](GetRequest& m) { OnGetRequest(m); },
          [&](Remove& m) { OnRemove(m); },
          [&](Error& m) { OnError(m); },
          [&](Shutdown&) { Finish(Status::Ok()); },
          [&](Sweep& m) { OnSweep(m); },
          [&](HeartbeatAck& m) { unexpected(m); },
          [&](JobFinished& m) { unexpected(m); },
          [&](PutDone& m) { unexpected(m); },
          [&](GetChunk& m) { unexpected(m); },
          [&](GetEnd& m) { unexpected(m); },
      },
      message);
}

void Agent::OnHello(const Hello& hello) {
  if (hello_done_) return Fail(Status::InvalidArgument("a second HELLO"));
  Status s = CheckHello(hello, "the master (" + hello.software + ")");
  if (!s.ok()) return Fail(s);
  if (!runner_status_.ok()) return Fail(runner_status_);
  hello_done_ = true;
  Hello reply;
  reply.software = std::string("gsrt-agent ") + AgentSoftwareVersion();
  reply.host_name = options_.facts.host_name;
  reply.work_dir = options_.work_dir;
  reply.slots = static_cast<uint32_t>(options_.slots);
  reply.cores = options_.facts.cores;
  reply.memory_total = options_.facts.memory_total;
  reply.memory_available = options_.facts.memory_available;
  reply.load1 = options_.facts.load1;
  reply.pid = static_cast<uint32_t>(::getpid());
  reply.gpus = static_cast<uint32_t>(std::max(0, options_.gpus));
  reply.held_jobs.assign(running_.begin(), running_.end());
  for (const JobReport& r : held_reports_) reply.held_jobs.push_back(r.id);
  Send(reply);
  // The reports of jobs that ended while no master listened.
  for (JobReport& r : held_reports_) Send(JobFinished{std::move(r)});
  held_reports_.clear();
}

void Agent::OnRunJob(JobSpec spec) {
  const JobId id = spec.id;
  if (!running_.insert(id).second) {
    return Fail(Status::InvalidArgument("job " + std::to_string(id) +
                                        " was sent twice while it runs"));
  }
  std::shared_ptr<bool> alive = alive_;
  runner_.Submit(std::move(spec), [this, alive, id](JobReport report) {
    if (!*alive) return;
    running_.erase(id);
    if (finished_) return;
    if (detached_ || !hello_done_) {
      held_reports_.push_back(std::move(report));
      return;
    }
    if (options_.outlive_master) {
      const Seconds now = clock_.Now();
      while (!recent_reports_.empty() &&
             recent_reports_.front().at < now - kRecentReports) {
        recent_reports_.pop_front();
      }
      recent_reports_.push_back(SentReport{now, report});
    }
    Send(JobFinished{std::move(report)});
  });
}

void Agent::OnPutBegin(const PutBegin& m) {
  if (uploads_.count(m.id)) {
    return Fail(Status::InvalidArgument("transfer " + std::to_string(m.id) +
                                        " began twice"));
  }
  auto path = ConfinedPath(options_.work_dir, m.path);
  if (!path.ok()) return SendError(m.id, path.status());
  auto file = IncomingFile::Create(*path);
  if (!file.ok()) return SendError(m.id, file.status());
  uploads_[m.id] = Upload{std::move(file).value(), m.size};
}

void Agent::OnPutChunk(const PutChunk& m) {
  auto it = uploads_.find(m.id);
  if (it == uploads_.end()) return;  // failed or aborted already
  Upload& up = it->second;
  Status s = up.file->Append(m.data);
  if (s.ok() && up.file->size() > up.declared_size) {
    s = Status::IoError("'" + up.file->path() + "': more than the announced " +
                        std::to_string(up.declared_size) +
                        " bytes arrived; the file changed while it was sent");
  }
  if (!s.ok()) {
    uploads_.erase(it);
    SendError(m.id, s);
  }
}

void Agent::OnPutEnd(const PutEnd& m) {
  auto it = uploads_.find(m.id);
  if (it == uploads_.end()) return;
  std::unique_ptr<IncomingFile> file = std::move(it->second.file);
  const uint64_t declared = it->second.declared_size;
  uploads_.erase(it);
  if (m.size != declared) {
    return SendError(
        m.id, Status::IoError("'" + file->path() + "' was announced with " +
                              std::to_string(declared) + " bytes but " +
                              std::to_string(m.size) +
                              " were sent; the file changed while it was "
                              "sent"));
  }
  Status s = file->Commit(m.size, m.hash);
  if (!s.ok()) return SendError(m.id, s);
  Send(PutDone{m.id});
}

void Agent::OnGetRequest(const GetRequest& m) {
  auto path = ConfinedPath(options_.work_dir, m.path);
  if (!path.ok()) return SendError(m.id, path.status());
  const int fd = ::open(path->c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    const int err = errno;
    const std::string what = "cannot read '" + *path + "'";
    return SendError(m.id, err == ENOENT
                               ? Status::NotFound(what + ": no such file")
                               : Status::FromErrno(what, err));
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return SendError(
        m.id, Status::InvalidArgument("'" + *path + "' is not a regular file"));
  }
  // Only the end: the file is not written any more (a finished job's log).
  if (m.tail != 0 && static_cast<uint64_t>(st.st_size) > m.tail) {
    (void)::lseek(fd, static_cast<off_t>(st.st_size - m.tail), SEEK_SET);
  }
  pump_.Add(m.id, fd, MessageType::kGetChunk, MessageType::kGetEnd,
            [this, id = m.id, p = *path](Status s) {
              if (!s.ok()) {
                Log(MessageKind::kWarning,
                    "sending '" + p + "': " + s.message());
              }
            });
}

void Agent::OnRemove(const Remove& m) {
  auto path = ConfinedPath(options_.work_dir, m.path);
  if (!path.ok()) {
    return Log(MessageKind::kWarning,
               "REMOVE refused: " + path.status().message());
  }
  std::error_code ec;
  std::filesystem::remove(*path, ec);
  if (ec) {
    Log(MessageKind::kWarning,
        "cannot remove '" + *path + "': " + ec.message());
  }
}

void Agent::OnSweep(const Sweep& m) {
  // What runs or is being received here is this agent's own: a sweep is
  // for a fresh connection, before any job or transfer.
  if (!running_.empty() || !held_reports_.empty() || !uploads_.empty()) {
    return Log(MessageKind::kWarning,
               "SWEEP refused: this agent runs or holds jobs or receives "
               "files");
  }
  // The runner's idle sandboxes are in jobs/ too: it lets go of them first.
  runner_.Sweep(m.owner, m.keep);
  auto counts = SweepWorkDir(options_.work_dir, m.owner, m.keep);
  if (!counts.ok()) {
    return Log(MessageKind::kWarning, "SWEEP: " + counts.status().message());
  }
  for (const std::string& failure : counts->failures) {
    Log(MessageKind::kWarning, "SWEEP: cannot remove " + failure);
  }
  if (counts->data_entries + counts->sandboxes > 0) {
    Log(MessageKind::kInfo,
        "removed what earlier agents of this master left: " +
            std::to_string(counts->data_entries) + " entries of data/, " +
            std::to_string(counts->sandboxes) + " job sandboxes");
  }
}

void Agent::OnError(const Error& m) {
  if (m.request == 0) {
    return Finish(
        MakeStatus(m.code, "the master ended the connection: " + m.message));
  }
  // The master gave up on a transfer.
  uploads_.erase(m.request);
  pump_.Cancel(m.request);
}

void Agent::Send(const Message& message) {
  if (!detached_) stream_->Write(Encode(message));
}

void Agent::SendError(uint64_t request, const Status& s) {
  Send(Error{request, s.code(), s.message()});
}

void Agent::Fail(Status why) {
  if (finished_) return;
  const std::string where = options_.facts.host_name.empty()
                                ? std::string("gsrt-agent")
                                : "gsrt-agent on " + options_.facts.host_name;
  SendError(0, why.WithContext(where));
  Finish(std::move(why));
}

void Agent::Finish(Status why) {
  if (finished_) return;
  finished_ = true;
  watchdog_.reset();
  pump_.Clear();
  uploads_.clear();
  // Kills what runs; reports are not sent any more (finished_).
  runner_.Shutdown();
  if (!why.ok()) Log(MessageKind::kError, why.ToString());
  if (on_exit_) {
    ExitCallback done = std::move(on_exit_);
    done(std::move(why));
  }
}

void Agent::Log(MessageKind kind, std::string_view line) {
  options_.messages->Say(kind, "gsrt-agent: " + std::string(line) + "\n");
}

}  // namespace gs
