// A decorator's base: an Adapter that forwards every call to another one
// (its target), so a decorator overrides only what it changes and keeps the
// target's answers for the rest. Every virtual of the seam is pure and
// forwarded here; a virtual added to the seam and not forwarded leaves
// this class abstract, which the static_assert below reports.
#ifndef GSRT_ADAPTERS_ADAPTER_WRAPPER_H_
#define GSRT_ADAPTERS_ADAPTER_WRAPPER_H_

#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "adapters/adapter.h"

namespace gs {

class AdapterWrapper : public Adapter {
 public:
  // `target` must outlive this object.
  explicit AdapterWrapper(Adapter& target) : target_(target) {}

  Adapter& target() const { return target_; }

  std::string_view kind() const override { return target_.kind(); }
  void SetMessages(MessageSink* sink) override { target_.SetMessages(sink); }

  // JobRunner
  void Submit(JobSpec spec, DoneCallback done) override {
    target_.Submit(std::move(spec), std::move(done));
  }
  void Cancel(JobId id) override { target_.Cancel(id); }
  int FreeSlots() const override { return target_.FreeSlots(); }
  void Adopt(QueuedJob job, JobSpec spec, DoneCallback done) override {
    target_.Adopt(std::move(job), std::move(spec), std::move(done));
  }
  void Forget(std::vector<QueuedJob> jobs) override {
    target_.Forget(std::move(jobs));
  }
  void NoteBacklog(int tasks) override { target_.NoteBacklog(tasks); }

  // HostLink
  Status Prepare() override { return target_.Prepare(); }
  Status Connect() override { return target_.Connect(); }
  void SetStartPhases(StartPhaseObserver observer) override {
    target_.SetStartPhases(std::move(observer));
  }
  void Reconnect(std::function<void(Status)> done) override {
    target_.Reconnect(std::move(done));
  }
  bool connected() const override { return target_.connected(); }
  Seconds last_heard() const override { return target_.last_heard(); }
  Seconds heartbeat_interval() const override {
    return target_.heartbeat_interval();
  }
  void Shutdown() override { target_.Shutdown(); }

  // FileStager
  bool shares_master_files() const override {
    return target_.shares_master_files();
  }
  std::string work_dir() const override { return target_.work_dir(); }
  void Put(std::string master_path, std::string host_path,
           StatusCallback done) override {
    target_.Put(std::move(master_path), std::move(host_path), std::move(done));
  }
  void Get(std::string host_path, std::string master_path,
           StatusCallback done) override {
    target_.Get(std::move(host_path), std::move(master_path), std::move(done));
  }
  void Remove(std::string host_path) override {
    target_.Remove(std::move(host_path));
  }
  void Sweep(std::string owner, std::vector<std::string> keep) override {
    target_.Sweep(std::move(owner), std::move(keep));
  }

  // HostProber
  void Probe(ProbeCallback done) override { target_.Probe(std::move(done)); }

  // HostKnowledge
  std::vector<QueueWaitSample> TakeQueueWaits() override {
    return target_.TakeQueueWaits();
  }
  std::vector<QueuedJob> TakeQueuedJobs() override {
    return target_.TakeQueuedJobs();
  }
  void RecordSubmissionsWith(SubmissionRecorder record) override {
    target_.RecordSubmissionsWith(std::move(record));
  }
  Seconds expected_start_delay() const override {
    return target_.expected_start_delay();
  }
  uint64_t memory_capacity() const override {
    return target_.memory_capacity();
  }
  int core_capacity() const override { return target_.core_capacity(); }
  int gpu_capacity() const override { return target_.gpu_capacity(); }

 private:
  Adapter& target_;
};

static_assert(!std::is_abstract_v<AdapterWrapper>,
              "AdapterWrapper must forward every virtual of the adapter seam");

}  // namespace gs

#endif  // GSRT_ADAPTERS_ADAPTER_WRAPPER_H_
