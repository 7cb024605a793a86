#include "adapters/batch/batch_host_adapter.h"

#include <sys/stat.h>

#include "adapters/batch/batch_job_runner.h"
#include "adapters/batch/via_ssh.h"

namespace gs {

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
  const std::string check = dir + "/check.sh";
  if (Status s = WriteFileAtomically(check, "#!/bin/sh\nexit 0\n"); !s.ok()) {
    return s;
  }
  ::chmod(check.c_str(), 0700);
  return commands_.Check(check);
}

void BatchHostAdapter::Forget(std::vector<QueuedJob> jobs) {
  std::vector<std::string> ids;
  for (const QueuedJob& j : jobs) ids.push_back(j.batch_id);
  if (ids.empty()) return;
  // Errors only say that some had left the queue already.
  (void)commands_.Cancel(ids);
}

}  // namespace gs
