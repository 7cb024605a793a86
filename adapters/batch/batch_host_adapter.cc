#include "adapters/batch/batch_host_adapter.h"

#include <sys/stat.h>

#include <filesystem>
#include <variant>

#include "adapters/batch/node/batch_claim.h"
#include "adapters/batch/node/batch_job_runner.h"
#include "adapters/batch/via_ssh.h"

namespace gs {

namespace fs = std::filesystem;

BatchHostAdapter::BatchHostAdapter(boost::asio::io_context& io, Clock& clock,
                                   BatchAdapterOptions options,
                                   std::unique_ptr<BatchSystem> system)
    : io_(io),
      clock_(clock),
      options_(std::move(options)),
      system_kind_(system->kind()),
      commands_(options_.host.name, std::move(system), options_.host.batch,
                options_.where),
      waits_(options_.host.batch.partition, options_.past_queue_waits) {
  if (!options_.login.name.empty()) {
    commands_.set_runner(
        MakeViaRunner(io_, clock_, options_.login, options_.host.env));
  }
}

StatusOr<int> BatchHostAdapter::CheckSystem(const std::string& dir) {
  // Per master (the pilots' directory is shared), and gone after: only
  // validated, never run.
  const std::string check =
      dir + "/check." + std::to_string(::getpid()) + ".sh";
  if (Status s = WriteFileAtomically(check, "#!/bin/sh\nexit 0\n"); !s.ok()) {
    return s;
  }
  ::chmod(check.c_str(), 0700);
  auto checked = commands_.Check(check);
  ::unlink(check.c_str());
  return checked;
}

std::string BatchHostAdapter::VoidOrFindClaim(const QueuedJob& job) {
  auto claim = ClaimBatchElement(job.dir, job.index, kVoidClaim);
  if (!claim.ok()) {
    // No directory, no job can run it either (it reads its spec there).
    Sayf(messages(), MessageKind::kWarning,
         "gsrt: %s: element %d of %s, being submitted when the "
         "master stopped, cannot be claimed (%s): taken as never "
         "run\n",
         Host().c_str(), job.index, job.dir.c_str(),
         claim.status().message().c_str());
    return "";
  }
  const auto* held = std::get_if<ClaimHeld>(&*claim);
  if (held == nullptr || held->owner == kVoidClaim) {
    // The claim must outlive the queued job: its run dir stays.
    voided_run_dirs_.insert(fs::path(job.dir).parent_path().string());
    Sayf(messages(), MessageKind::kInfo,
         "gsrt: %s: element %d of %s was being submitted when the "
         "master stopped and has not started: voided (should the "
         "queue start it, it exits at once)\n",
         Host().c_str(), job.index, job.dir.c_str());
    return "";
  }
  Sayf(messages(), MessageKind::kInfo,
       "gsrt: %s: element %d of %s was being submitted when the "
       "master stopped; it runs as batch job %s\n",
       Host().c_str(), job.index, job.dir.c_str(), held->owner.c_str());
  return held->owner;
}

void BatchHostAdapter::Forget(std::vector<QueuedJob> jobs) {
  std::vector<std::string> ids;
  for (const QueuedJob& j : jobs) {
    if (!j.batch_id.empty()) {
      ids.push_back(j.batch_id);
    } else if (!j.dir.empty()) {
      if (std::string id = VoidOrFindClaim(j); !id.empty()) ids.push_back(id);
    }
  }
  if (ids.empty()) return;
  // Errors only say that some had left the queue already.
  (void)commands_.Cancel(ids);
}

}  // namespace gs
