// The adapter seam (GAT-style): one narrow interface through which the
// runtime runs jobs on a host, whatever the host is (local processes, ssh,
// a batch queue, a simulation). One Adapter object serves one host.
// Adapter is the union of the seam's roles, each in its own header
// (JobRunner, HostLink, FileStager, HostProber, HostKnowledge); code that
// needs one role can take just it. Every virtual of the seam is pure: a new
// one goes in with its default in AdapterDefaults (adapter_defaults.h) and
// its forward in AdapterWrapper (adapter_wrapper.h), which does not compile
// otherwise (docs/design.md, "The adapter seam").
// Adapters never retry: retry budgets live in the runtime. Every callback
// runs on the engine's thread (the io_context the adapter was made with).
#ifndef GSRT_ADAPTERS_ADAPTER_H_
#define GSRT_ADAPTERS_ADAPTER_H_

#include <string_view>

#include "adapters/file_stager.h"
#include "adapters/host_knowledge.h"
#include "adapters/host_link.h"
#include "adapters/host_prober.h"
#include "adapters/job_runner.h"
#include "runtime/base/messages.h"
#include "runtime/base/status.h"
#include "runtime/jobs/job.h"

namespace gs {

class Adapter : public JobRunner,
                public HostLink,
                public FileStager,
                public HostProber,
                public HostKnowledge {
 public:
  ~Adapter() override = default;

  // "local", "ssh", "slurm", "pbs", "sim".
  virtual std::string_view kind() const = 0;
  // Where the adapter's messages to the user go (the engine hands it its
  // own before Connect); null: StderrMessages(). Not owned; must outlive
  // the adapter.
  virtual void SetMessages(MessageSink* sink) = 0;
};

}  // namespace gs

#endif  // GSRT_ADAPTERS_ADAPTER_H_
