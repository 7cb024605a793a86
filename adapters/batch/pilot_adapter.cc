#include "adapters/batch/pilot_adapter.h"

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <filesystem>
#include <utility>

namespace gs {

namespace fs = std::filesystem;

namespace {

Status MakePrivateDir(const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return Status::IoError("cannot create " + dir + ": " + ec.message());
  fs::permissions(dir, fs::perms::owner_all, fs::perm_options::replace, ec);
  return Status::Ok();
}

}  // namespace

PilotAdapter::PilotAdapter(boost::asio::io_context& io, Clock& clock,
                           BatchAdapterOptions options,
                           std::unique_ptr<BatchSystem> system)
    : BatchHostAdapter(io, clock, std::move(options), std::move(system)),
      fleet_(PilotFleetSetup{
          .io = &io,
          .clock = &clock,
          .options = &this->options(),
          .commands = &commands(),
          .waits = &waits(),
          .kind = std::string(kind()),
          .queued = [this](QueuedJob job) { Queued(std::move(job)); },
          .unsent_cores = [this] { return UnsentCores(); }}) {}

PilotAdapter::~PilotAdapter() {
  Shutdown();
  *alive_ = false;
}

void PilotAdapter::SetMessages(MessageSink* sink) {
  BatchHostAdapter::SetMessages(sink);
  fleet_.set_messages(&messages());
}

Status PilotAdapter::PrepareHost() {
  if (Status s = CheckBatchOptions(options()); !s.ok()) return s;
  if (Status s = MakePrivateDir(options().host.workdir); !s.ok()) return s;
  if (Status s = MakePrivateDir(fleet_.script_dir()); !s.ok()) return s;
  if (auto checked = CheckSystem(fleet_.script_dir()); !checked.ok()) {
    return checked.status();
  }
  return Status::Ok();
}

Status PilotAdapter::Connect() {
  if (fleet_.shut_down()) {
    return Status::FailedPrecondition(Host() + " was shut down");
  }
  if (!fleet_.prepared()) {
    if (Status s = PrepareHost(); !s.ok()) return s;
    if (Status s = fleet_.Prepare(); !s.ok()) return s;
  }
  return fleet_.Connect();
}

void PilotAdapter::Reconnect(std::function<void(Status)> done) {
  if (fleet_.shut_down()) {
    return boost::asio::post(
        io(), [done] { done(Status::Cancelled("the host was shut down")); });
  }
  if (!fleet_.prepared()) return done(Connect());
  fleet_.Reconnect(std::move(done));
}

int PilotAdapter::UnsentCores() const {
  int n = 0;
  for (const Outgoing& o : outgoing_) n += std::max(1, o.spec.cores);
  return n;
}

int PilotAdapter::FreeSlots() const {
  return std::max(0, fleet_.FreeCores() - UnsentCores());
}

int PilotAdapter::GpusOf(const JobSpec& spec) { return std::max(0, spec.gpus); }

void PilotAdapter::ReportUnrun(const JobSpec& spec, DoneCallback done,
                               JobOutcome outcome) {
  JobReport report;
  report.id = spec.id;
  report.outcome = std::move(outcome);
  report.submitted = report.started = report.ended = clock().Now();
  boost::asio::post(io(), [done = std::move(done), report] { done(report); });
}

void PilotAdapter::Submit(JobSpec spec, DoneCallback done) {
  if (!fleet_.reattaches()) {
    Pilot* pilot = fleet_.PilotForJob(nullptr, GpusOf(spec));
    if (pilot == nullptr || fleet_.shut_down()) {
      return ReportUnrun(spec, std::move(done),
                         HostFailed{Host() + " has no connected pilot"});
    }
    return SendTo(*pilot, std::move(spec), std::move(done));
  }
  // Recorded as run by its pilot before it is sent, all of a round in one
  // commit: a master killed after sending finds it when started again.
  outgoing_.push_back(Outgoing{std::move(spec), std::move(done)});
  if (send_posted_) return;
  send_posted_ = true;
  std::shared_ptr<bool> alive = alive_;
  boost::asio::post(io(), [this, alive] {
    if (*alive) SendOutgoing();
  });
}

void PilotAdapter::SendOutgoing() {
  send_posted_ = false;
  auto outgoing = std::exchange(outgoing_, {});
  std::vector<std::pair<Pilot*, Outgoing>> sends;
  std::vector<QueuedJob> records;
  PilotFleet::Taken taken;  // slots given out in this batch
  for (Outgoing& o : outgoing) {
    Pilot* pilot = fleet_.shut_down()
                       ? nullptr
                       : fleet_.PilotForJob(&taken, GpusOf(o.spec));
    if (pilot == nullptr) {
      ReportUnrun(o.spec, std::move(o.done),
                  HostFailed{Host() + " has no connected pilot"});
      continue;
    }
    taken[pilot].cores += std::max(1, o.spec.cores);
    taken[pilot].gpus += GpusOf(o.spec);
    QueuedJob q;
    q.job = o.spec.id;
    q.task = o.spec.task;
    q.batch_id = pilot->batch_id;
    q.name = fleet_.job_name();
    q.dir = fleet_.script_dir();
    q.in_pilot = true;
    records.push_back(q);
    sends.emplace_back(pilot, std::move(o));
  }
  if (!records.empty()) RecordSubmissions(records);
  for (auto& [pilot, o] : sends) {
    SendTo(*pilot, std::move(o.spec), std::move(o.done));
  }
}

PilotAdapter::DoneCallback PilotAdapter::Running(Pilot& pilot, JobId id,
                                                 int cores, int gpus,
                                                 DoneCallback done) {
  job_pilot_[id] = &pilot;
  fleet_.WorkStarted(pilot, cores, gpus);
  std::shared_ptr<bool> alive = alive_;
  Pilot* p = &pilot;  // pilots are kept until the fleet goes
  return
      [this, alive, id, p, cores, gpus, done = std::move(done)](JobReport r) {
        if (*alive) {
          job_pilot_.erase(id);
          fleet_.WorkEnded(*p, cores, gpus);
        }
        done(std::move(r));
      };
}

void PilotAdapter::SendTo(Pilot& pilot, JobSpec spec, DoneCallback done) {
  const JobId id = spec.id;
  const int cores = std::max(1, spec.cores);
  DoneCallback running =
      Running(pilot, id, cores, GpusOf(spec), std::move(done));
  pilot.agent->Submit(std::move(spec), std::move(running));
}

void PilotAdapter::Cancel(JobId id) {
  for (auto it = outgoing_.begin(); it != outgoing_.end(); ++it) {
    if (it->spec.id != id) continue;
    // Not sent yet: it never ran.
    ReportUnrun(it->spec, std::move(it->done), Cancelled{});
    outgoing_.erase(it);
    return;
  }
  auto it = job_pilot_.find(id);
  if (it != job_pilot_.end() && it->second->agent)
    it->second->agent->Cancel(id);
}

void PilotAdapter::Adopt(QueuedJob job, JobSpec spec, DoneCallback done) {
  Pilot* pilot = fleet_.Returned(job.batch_id, /*serving=*/true);
  if (!job.in_pilot || pilot == nullptr || fleet_.shut_down()) {
    // Its pilot did not come back: the job died with it.
    return Submit(std::move(spec), std::move(done));
  }
  const JobId old_id = job.job;
  if (!pilot->agent->Holds(old_id)) {
    Sayf(messages(), MessageKind::kWarning,
         "gsrt: %s: pilot %s does not hold job %llu of the "
         "interrupted run; its task runs again\n",
         Host().c_str(), pilot->name.c_str(),
         static_cast<unsigned long long>(old_id));
    return Submit(std::move(spec), std::move(done));
  }
  const JobId id = spec.id;
  const int cores = std::max(1, spec.cores);
  const TaskId task = spec.task;
  DoneCallback running =
      Running(*pilot, id, cores, GpusOf(spec), std::move(done));
  pilot->agent->AdoptHeld(old_id, spec, std::move(running));
  QueuedJob q;  // recorded again: a later crash finds it too
  q.job = id;
  q.task = task;
  q.batch_id = pilot->batch_id;
  q.name = job.name;
  q.dir = job.dir;
  q.in_pilot = true;
  q.adopted = true;
  Queued(std::move(q));
}

void PilotAdapter::Forget(std::vector<QueuedJob> jobs) {
  std::vector<QueuedJob> rest;
  for (QueuedJob& j : jobs) {
    Pilot* pilot = fleet_.Returned(j.batch_id, /*serving=*/false);
    if (j.in_pilot) {
      // Nobody takes it over: it must not write its files beside the
      // task's new run.
      if (pilot != nullptr && pilot->agent) pilot->agent->DropHeld(j.job);
      continue;
    }
    if (j.job == 0 && pilot != nullptr) continue;  // came back: it serves
    rest.push_back(std::move(j));
  }
  if (!rest.empty()) BatchHostAdapter::Forget(std::move(rest));
}

void PilotAdapter::Shutdown() {
  if (fleet_.shut_down()) return;
  for (Outgoing& o : std::exchange(outgoing_, {})) {
    ReportUnrun(o.spec, std::move(o.done), Cancelled{});
  }
  fleet_.Shutdown();
}

PilotAdapter::StatusCallback PilotAdapter::Busy(Pilot& pilot,
                                                StatusCallback done) {
  fleet_.WorkStarted(pilot, 0);
  std::shared_ptr<bool> alive = alive_;
  Pilot* p = &pilot;  // pilots are kept until the fleet goes
  return [this, alive, p, done = std::move(done)](Status s) {
    if (*alive) fleet_.WorkEnded(*p, 0);
    done(std::move(s));
  };
}

void PilotAdapter::Put(std::string master_path, std::string host_path,
                       StatusCallback done) {
  Pilot* p = fleet_.ReadyPilot();
  if (p == nullptr) return done(Status::Unavailable(Host() + ": no pilot"));
  p->agent->Put(std::move(master_path), std::move(host_path),
                Busy(*p, std::move(done)));
}

void PilotAdapter::Get(std::string host_path, std::string master_path,
                       StatusCallback done) {
  Pilot* p = fleet_.ReadyPilot();
  if (p == nullptr) return done(Status::Unavailable(Host() + ": no pilot"));
  p->agent->Get(std::move(host_path), std::move(master_path),
                Busy(*p, std::move(done)));
}

void PilotAdapter::Remove(std::string host_path) {
  if (Pilot* p = fleet_.ReadyPilot()) p->agent->Remove(std::move(host_path));
}

void PilotAdapter::Probe(ProbeCallback done) {
  Pilot* p = fleet_.ReadyPilot();
  if (p == nullptr) return done(Status::Unavailable(Host() + ": no pilot"));
  const WaitEstimate wait =
      waits().FromHistory(BatchJobShape(options().host.batch));
  p->agent->Probe([done = std::move(done), wait,
                   kind = std::string(kind())](StatusOr<HostProbe> probe) {
    if (probe.ok() && wait.basis != WaitBasis::kNone) {
      probe->queue_wait = wait.seconds;
      probe->queue_wait_basis = wait.Describe(kind);
    }
    done(std::move(probe));
  });
}

}  // namespace gs
