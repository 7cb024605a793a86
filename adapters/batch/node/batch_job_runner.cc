#include "adapters/batch/node/batch_job_runner.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <cerrno>
#include <cstdlib>
#include <optional>
#include <variant>

#include "adapters/agent/protocol.h"
#include "adapters/batch/node/batch_claim.h"
#include "adapters/batch/node/signal_grace.h"
#include "adapters/local/local_adapter.h"
#include "runtime/base/asio_clock.h"
#include "runtime/base/gpu_devices.h"
#include "runtime/base/joined.h"

namespace gs {

std::string BatchSpecPath(const std::string& dir, int index) {
  return dir + "/spec." + std::to_string(index);
}

std::string BatchRecordPath(const std::string& dir, int index) {
  return dir + "/record." + std::to_string(index);
}

StatusOr<std::string> ReadSmallFile(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::FromErrno("open " + path, errno);
  std::string out;
  char buf[65536];
  while (true) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      ::close(fd);
      return Status::FromErrno("read " + path, err);
    }
    if (n == 0) break;
    out.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  return out;
}

namespace {

StatusOr<agent::Message> DecodeOne(std::string_view bytes) {
  agent::FrameDecoder decoder;
  decoder.Append(bytes);
  auto next = decoder.Next();
  if (!next.ok()) return next.status();
  if (!next->has_value() || decoder.buffered() != 0) {
    return Status::InvalidArgument("not one whole frame");
  }
  return std::move(**next);
}

}  // namespace

std::string EncodeBatchSpec(const JobSpec& spec) {
  return agent::Encode(agent::RunJob{spec});
}

StatusOr<JobSpec> DecodeBatchSpec(std::string_view bytes) {
  auto m = DecodeOne(bytes);
  if (!m.ok()) return m.status().WithContext("job spec");
  auto* run = std::get_if<agent::RunJob>(&*m);
  if (run == nullptr) return Status::InvalidArgument("job spec: wrong frame");
  return std::move(run->spec);
}

std::string EncodeBatchRecord(const JobReport& report) {
  return agent::Encode(agent::JobFinished{report});
}

StatusOr<JobReport> DecodeBatchRecord(std::string_view bytes) {
  auto m = DecodeOne(bytes);
  if (!m.ok()) return m.status().WithContext("job record");
  auto* done = std::get_if<agent::JobFinished>(&*m);
  if (done == nullptr) {
    return Status::InvalidArgument("job record: wrong frame");
  }
  return std::move(done->report);
}

int BatchArrayIndex() {
  for (const char* name :
       {"SLURM_ARRAY_TASK_ID", "PBS_ARRAYID", "PBS_ARRAY_INDEX"}) {
    const char* v = std::getenv(name);
    if (v != nullptr && *v != '\0') return std::atoi(v);
  }
  return 0;
}

namespace {

// A job-mode batch job that asked the queue for GPUs (`--gres=gpu:k`) has
// them named in its environment (CUDA_VISIBLE_DEVICES, SLURM_JOB_GPUS):
// they are the job's own, and it is told them as a host's devices are told
// (GSRT_GPUS too). The master named none (runtime/jobs/gpu_pool.h).
void GiveQueueGpus(JobSpec* spec) {
  for (const std::string& e : spec->env) {
    if (e.rfind("CUDA_VISIBLE_DEVICES=", 0) == 0) return;
  }
  const std::vector<std::string> gpus =
      VisibleGpus([](const char* name) { return std::getenv(name); }, {});
  if (gpus.empty()) return;
  const std::string devices = Joined(gpus, ",");
  spec->env.push_back("CUDA_VISIBLE_DEVICES=" + devices);
  spec->env.push_back("GSRT_GPUS=" + devices);
}

}  // namespace

int RunBatchJob(const std::string& dir, const std::string& work_dir,
                const std::vector<std::string>& launcher) {
  return RunBatchJob(dir, work_dir, StderrMessages(), launcher);
}

int RunBatchJob(const std::string& dir, const std::string& work_dir,
                MessageSink& messages,
                const std::vector<std::string>& launcher) {
  const int index = BatchArrayIndex();
  // Claimed before anything runs (batch_claim.h): a master started again
  // after a crash may have voided this element, or the queue may run this
  // job a second time (requeue), which finds its own claim.
  std::string self = OwnBatchId(std::getenv);
  if (self.empty()) self = "pid " + std::to_string(::getpid());
  auto claim = ClaimBatchElement(dir, index, self);
  if (!claim.ok()) {
    Sayf(messages, MessageKind::kError, "gsrt-agent --batch-job: %s\n",
         claim.status().ToString().c_str());
    return 1;
  }
  if (const auto* held = std::get_if<ClaimHeld>(&*claim);
      held != nullptr && held->owner != self) {
    if (held->owner == kVoidClaim) {
      Sayf(messages, MessageKind::kInfo,
           "gsrt-agent --batch-job: element %d of %s was voided by "
           "the master started again after a crash (it runs the "
           "task as a new job): not running it\n",
           index, dir.c_str());
      return 0;
    }
    Sayf(messages, MessageKind::kWarning,
         "gsrt-agent --batch-job: element %d of %s is run by batch "
         "job %s already: not running it twice\n",
         index, dir.c_str(), held->owner.c_str());
    return 1;
  }
  auto bytes = ReadSmallFile(BatchSpecPath(dir, index));
  auto spec =
      bytes.ok() ? DecodeBatchSpec(*bytes) : StatusOr<JobSpec>(bytes.status());
  if (!spec.ok()) {
    Sayf(messages, MessageKind::kError, "gsrt-agent --batch-job: %s\n",
         spec.status().ToString().c_str());
    return 1;
  }
  GiveQueueGpus(&*spec);
  boost::asio::io_context io(1);
  AsioClock clock(io);
  LocalAdapterOptions options;
  options.slots = 1;
  options.work_dir = work_dir;
  options.environment.launcher = launcher;
  LocalAdapter local(io, clock, options);
  // A worker killed by the batch system's signal must not count as its
  // own failure: no record is written then (see signal_grace.h).
  SignalGraceAdapter runner(local, clock);
  std::optional<JobReport> report;
  if (Status s = runner.Connect(); !s.ok()) {
    JobReport failed;
    failed.id = spec->id;
    failed.outcome = HostFailed{s.message()};
    failed.submitted = failed.started = failed.ended = clock.Now();
    report = failed;
  } else {
    bool stopped = false;
    boost::asio::signal_set signals(io, SIGTERM, SIGINT, SIGHUP);
    signals.async_wait([&](const boost::system::error_code& ec, int) {
      if (ec) return;
      stopped = true;
      runner.Shutdown();
      io.stop();
    });
    runner.Submit(std::move(spec).value(), [&](JobReport r) {
      if (stopped) return;
      report = std::move(r);
      signals.cancel();
      io.stop();
    });
    io.run();
    if (stopped) {
      Sayf(messages, MessageKind::kWarning,
           "gsrt-agent --batch-job: stopped by a signal\n");
      return 1;
    }
  }
  if (!report) return 1;
  Status s = WriteFileAtomically(BatchRecordPath(dir, index),
                                 EncodeBatchRecord(*report));
  if (!s.ok()) {
    Sayf(messages, MessageKind::kError, "gsrt-agent --batch-job: %s\n",
         s.ToString().c_str());
    return 1;
  }
  return 0;
}

}  // namespace gs
