// What a host answers for the seam's roles it does not have: always
// connected and never heard from (no heartbeats), reconnected by a plain
// Connect(); sharing the master's files, so nothing to stage; not
// probeable; starting jobs at once and learning nothing. Adapter kinds
// derive from this and override what they have. Decorators derive from
// AdapterWrapper instead: a default there would hide the wrapped adapter's
// answer.
#ifndef GSRT_ADAPTERS_ADAPTER_DEFAULTS_H_
#define GSRT_ADAPTERS_ADAPTER_DEFAULTS_H_

#include <string>
#include <utility>
#include <vector>

#include "adapters/adapter.h"

namespace gs {

class AdapterDefaults : public Adapter {
 public:
  void SetMessages(MessageSink* sink) override {
    messages_ = sink ? sink : &StderrMessages();
  }
  // What the kind says to the user goes here.
  MessageSink& messages() const { return *messages_; }
  // Tells the start's observer (SetStartPhases) the phase it is in now.
  void StartPhaseIs(StartPhase phase) const {
    if (phases_) phases_(phase);
  }
  // JobRunner: nothing to take over.
  void Adopt(QueuedJob job, JobSpec spec, DoneCallback done) override {
    Submit(std::move(spec), std::move(done));
  }
  void Forget(std::vector<QueuedJob> jobs) override {}
  void NoteBacklog(int tasks) override {}

  // HostLink: nothing to prepare apart from Connect.
  Status Prepare() override { return Status::Ok(); }
  void SetStartPhases(StartPhaseObserver observer) override {
    phases_ = std::move(observer);
  }
  void Reconnect(std::function<void(Status)> done) override { done(Connect()); }
  bool connected() const override { return true; }
  Seconds last_heard() const override { return -1; }
  Seconds heartbeat_interval() const override { return 0; }

  // FileStager
  bool shares_master_files() const override { return true; }
  std::string work_dir() const override { return ""; }
  void Put(std::string master_path, std::string host_path,
           StatusCallback done) override {
    done(Status::FailedPrecondition(std::string(kind()) +
                                    " adapter does not stage files"));
  }
  void Get(std::string host_path, std::string master_path,
           StatusCallback done) override {
    done(Status::FailedPrecondition(std::string(kind()) +
                                    " adapter does not stage files"));
  }
  void Remove(std::string host_path) override {}
  void Sweep(std::string owner, std::vector<std::string> keep) override {}

  // HostProber
  void Probe(ProbeCallback done) override {
    done(Status::FailedPrecondition(std::string(kind()) +
                                    " adapter cannot be probed"));
  }

  // HostKnowledge
  std::vector<QueueWaitSample> TakeQueueWaits() override { return {}; }
  std::vector<QueuedJob> TakeQueuedJobs() override { return {}; }
  void RecordSubmissionsWith(SubmissionRecorder record) override {}
  Seconds expected_start_delay() const override { return 0; }
  uint64_t memory_capacity() const override { return 0; }
  int core_capacity() const override { return 0; }
  int gpu_capacity() const override { return 0; }

 private:
  MessageSink* messages_ = &StderrMessages();
  StartPhaseObserver phases_;
};

}  // namespace gs

#endif  // GSRT_ADAPTERS_ADAPTER_DEFAULTS_H_
