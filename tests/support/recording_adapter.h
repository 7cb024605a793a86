// An adapter that records every call of the seam with its arguments and
// answers with values no default gives, and the table of seam calls that
// checks those answers: the tests of AdapterWrapper and of each decorator
// call every virtual through the wrapper and look for it at the target.
//
// RecordingAdapter derives from Adapter itself, not AdapterDefaults, so a
// virtual added to the seam does not compile here until it is recorded;
// add its row to SeamCalls() then.
#ifndef GSRT_TESTS_SUPPORT_RECORDING_ADAPTER_H_
#define GSRT_TESTS_SUPPORT_RECORDING_ADAPTER_H_

#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "adapters/adapter.h"

namespace gs::testing {

class RecordingAdapter : public Adapter {
 public:
  // The answers; tests may change them (a decorator may read some itself).
  struct Answers {
    int free_slots = 7;
    bool connected = false;
    Seconds last_heard = 12.5;
    Seconds heartbeat_interval = 3;
    bool shares_master_files = false;
    Seconds expected_start_delay = 42;
    uint64_t memory_capacity = 1234567;
    int core_capacity = 7;
    int gpu_capacity = 3;
  };
  Answers answers;
  // "Name arg..." for each call, in order (const methods record too).
  mutable std::vector<std::string> calls;

  void SetMessages(MessageSink* sink) override { Record("SetMessages"); }
  std::string_view kind() const override {
    Record("kind");
    return "recording";
  }
  void Submit(JobSpec spec, DoneCallback done) override {
    Record("Submit " + std::to_string(spec.id));
    JobReport report;
    report.id = spec.id;
    Exited exited;
    exited.code = 42;
    report.outcome = exited;
    done(std::move(report));  // at once: no io_context here
  }
  void Cancel(JobId id) override { Record("Cancel " + std::to_string(id)); }
  void Adopt(QueuedJob job, JobSpec spec, DoneCallback done) override {
    Record("Adopt " + job.batch_id + " " + std::to_string(spec.id));
    JobReport report;
    report.id = spec.id;
    report.outcome = Cancelled{};
    done(std::move(report));
  }
  void Forget(std::vector<QueuedJob> jobs) override {
    std::string ids;
    for (const QueuedJob& j : jobs) ids += " " + j.batch_id;
    Record("Forget" + ids);
  }
  void NoteBacklog(int tasks) override {
    Record("NoteBacklog " + std::to_string(tasks));
  }
  int FreeSlots() const override {
    Record("FreeSlots");
    return answers.free_slots;
  }
  Status Prepare() override {
    Record("Prepare");
    return Status::Unavailable("recorded Prepare");
  }
  Status Connect() override {
    Record("Connect");
    return Status::Unavailable("recorded Connect");
  }
  // Tells the observer kChecking at once.
  void SetStartPhases(StartPhaseObserver observer) override {
    Record("SetStartPhases");
    if (observer) observer(StartPhase::kChecking);
  }
  void Reconnect(std::function<void(Status)> done) override {
    Record("Reconnect");
    done(Status::Unavailable("recorded Reconnect"));
  }
  bool connected() const override {
    Record("connected");
    return answers.connected;
  }
  Seconds last_heard() const override {
    Record("last_heard");
    return answers.last_heard;
  }
  Seconds heartbeat_interval() const override {
    Record("heartbeat_interval");
    return answers.heartbeat_interval;
  }
  void Shutdown() override { Record("Shutdown"); }
  bool shares_master_files() const override {
    Record("shares_master_files");
    return answers.shares_master_files;
  }
  std::string work_dir() const override {
    Record("work_dir");
    return "/recorded/work";
  }
  void Put(std::string master_path, std::string host_path,
           StatusCallback done) override {
    Record("Put " + master_path + " " + host_path);
    done(Status::IoError("recorded Put"));
  }
  void Get(std::string host_path, std::string master_path,
           StatusCallback done) override {
    Record("Get " + host_path + " " + master_path);
    done(Status::IoError("recorded Get"));
  }
  void Remove(std::string host_path) override { Record("Remove " + host_path); }
  void Sweep(std::string owner, std::vector<std::string> keep) override {
    std::string call = "Sweep " + owner;
    for (const std::string& name : keep) call += " " + name;
    Record(call);
  }
  void Probe(ProbeCallback done) override {
    Record("Probe");
    HostProbe probe;
    probe.cores = 13;
    done(probe);
  }
  std::vector<QueueWaitSample> TakeQueueWaits() override {
    Record("TakeQueueWaits");
    return {QueueWaitSample{"recorded", 1, 4}};
  }
  std::vector<QueuedJob> TakeQueuedJobs() override {
    Record("TakeQueuedJobs");
    QueuedJob job;
    job.batch_id = "77_3";
    return {job};
  }
  void RecordSubmissionsWith(SubmissionRecorder record) override {
    Record("RecordSubmissionsWith");
    QueuedJob job;
    job.dir = "/recorded/b0";
    record({job});
  }
  Seconds expected_start_delay() const override {
    Record("expected_start_delay");
    return answers.expected_start_delay;
  }
  uint64_t memory_capacity() const override {
    Record("memory_capacity");
    return answers.memory_capacity;
  }
  int core_capacity() const override {
    Record("core_capacity");
    return answers.core_capacity;
  }
  int gpu_capacity() const override {
    Record("gpu_capacity");
    return answers.gpu_capacity;
  }

  bool Called(const std::string& call) const {
    for (const std::string& c : calls) {
      if (c == call) return true;
    }
    return false;
  }

 private:
  void Record(std::string call) const { calls.push_back(std::move(call)); }
};

// One virtual of the seam: what calling it through `adapter` records at
// the target, and the call, which checks (gtest) that `adapter` answered
// what `target` answers.
struct SeamCall {
  std::string record;
  std::function<void(Adapter& adapter, const RecordingAdapter& target)> call;
};

// Every virtual of the seam, Shutdown last.
inline std::vector<SeamCall> SeamCalls() {
  using R = const RecordingAdapter&;
  // Starts a call with a status callback and checks what it said.
  auto answers_status =
      [](std::string message,
         std::function<void(FileStager::StatusCallback)> start) {
        bool done = false;
        start([&](Status s) {
          done = true;
          EXPECT_EQ(s.message(), message);
        });
        EXPECT_TRUE(done) << message;
      };
  return {
      {"kind", [](Adapter& a, R) { EXPECT_EQ(a.kind(), "recording"); }},
      {"SetMessages", [](Adapter& a, R) { a.SetMessages(nullptr); }},
      {"Submit 5",
       [](Adapter& a, R) {
         JobSpec spec;
         spec.id = 5;
         bool done = false;
         a.Submit(spec, [&](JobReport r) {
           done = true;
           EXPECT_EQ(r.id, 5u);
           EXPECT_EQ(std::get<Exited>(r.outcome).code, 42);
         });
         EXPECT_TRUE(done);
       }},
      {"Cancel 9", [](Adapter& a, R) { a.Cancel(9); }},
      {"Adopt 12_1 6",
       [](Adapter& a, R) {
         QueuedJob job;
         job.batch_id = "12_1";
         JobSpec spec;
         spec.id = 6;
         bool done = false;
         a.Adopt(job, spec, [&](JobReport r) {
           done = true;
           EXPECT_EQ(r.id, 6u);
           EXPECT_TRUE(std::holds_alternative<Cancelled>(r.outcome));
         });
         EXPECT_TRUE(done);
       }},
      {"Forget 8 9_2",
       [](Adapter& a, R) {
         QueuedJob one, two;
         one.batch_id = "8";
         two.batch_id = "9_2";
         a.Forget({one, two});
       }},
      {"NoteBacklog 7", [](Adapter& a, R) { a.NoteBacklog(7); }},
      {"FreeSlots",
       [](Adapter& a, R t) { EXPECT_EQ(a.FreeSlots(), t.answers.free_slots); }},
      {"Prepare",
       [](Adapter& a, R) {
         EXPECT_EQ(a.Prepare().message(), "recorded Prepare");
       }},
      {"SetStartPhases",
       [](Adapter& a, R) {
         std::optional<StartPhase> told;
         a.SetStartPhases([&](StartPhase p) { told = p; });
         EXPECT_EQ(told, StartPhase::kChecking);
       }},
      {"Connect",
       [](Adapter& a, R) {
         EXPECT_EQ(a.Connect().message(), "recorded Connect");
       }},
      {"Reconnect",
       [=](Adapter& a, R) {
         answers_status("recorded Reconnect",
                        [&](auto done) { a.Reconnect(done); });
       }},
      {"connected",
       [](Adapter& a, R t) { EXPECT_EQ(a.connected(), t.answers.connected); }},
      {"last_heard",
       [](Adapter& a, R t) {
         EXPECT_EQ(a.last_heard(), t.answers.last_heard);
       }},
      {"heartbeat_interval",
       [](Adapter& a, R t) {
         EXPECT_EQ(a.heartbeat_interval(), t.answers.heartbeat_interval);
       }},
      {"shares_master_files",
       [](Adapter& a, R t) {
         EXPECT_EQ(a.shares_master_files(), t.answers.shares_master_files);
       }},
      {"work_dir",
       [](Adapter& a, R) { EXPECT_EQ(a.work_dir(), "/recorded/work"); }},
      {"Put /master/a /host/a",
       [=](Adapter& a, R) {
         answers_status("recorded Put", [&](auto done) {
           a.Put("/master/a", "/host/a", done);
         });
       }},
      {"Get /host/b /master/b",
       [=](Adapter& a, R) {
         answers_status("recorded Get", [&](auto done) {
           a.Get("/host/b", "/master/b", done);
         });
       }},
      {"Remove /host/c", [](Adapter& a, R) { a.Remove("/host/c"); }},
      {"Sweep m:/w 1-a 2-b",
       [](Adapter& a, R) {
         a.Sweep("m:/w", {"1-a", "2-b"});
       }},
      {"Probe",
       [](Adapter& a, R) {
         bool done = false;
         a.Probe([&](StatusOr<HostProbe> probe) {
           done = true;
           ASSERT_TRUE(probe.ok());
           EXPECT_EQ(probe->cores, 13u);
         });
         EXPECT_TRUE(done);
       }},
      {"TakeQueueWaits",
       [](Adapter& a, R) {
         std::vector<QueueWaitSample> waits = a.TakeQueueWaits();
         ASSERT_EQ(waits.size(), 1u);
         EXPECT_EQ(waits[0].partition, "recorded");
       }},
      {"TakeQueuedJobs",
       [](Adapter& a, R) {
         std::vector<QueuedJob> jobs = a.TakeQueuedJobs();
         ASSERT_EQ(jobs.size(), 1u);
         EXPECT_EQ(jobs[0].batch_id, "77_3");
       }},
      {"RecordSubmissionsWith",
       [](Adapter& a, R) {
         std::vector<QueuedJob> recorded;
         a.RecordSubmissionsWith(
             [&](const std::vector<QueuedJob>& jobs) { recorded = jobs; });
         ASSERT_EQ(recorded.size(), 1u);
         EXPECT_EQ(recorded[0].dir, "/recorded/b0");
       }},
      {"expected_start_delay",
       [](Adapter& a, R t) {
         EXPECT_EQ(a.expected_start_delay(), t.answers.expected_start_delay);
       }},
      {"memory_capacity",
       [](Adapter& a, R t) {
         EXPECT_EQ(a.memory_capacity(), t.answers.memory_capacity);
       }},
      {"core_capacity",
       [](Adapter& a, R t) {
         EXPECT_EQ(a.core_capacity(), t.answers.core_capacity);
       }},
      {"gpu_capacity",
       [](Adapter& a, R t) {
         EXPECT_EQ(a.gpu_capacity(), t.answers.gpu_capacity);
       }},
      {"Shutdown", [](Adapter& a, R) { a.Shutdown(); }},
  };
}

}  // namespace gs::testing

#endif  // GSRT_TESTS_SUPPORT_RECORDING_ADAPTER_H_
