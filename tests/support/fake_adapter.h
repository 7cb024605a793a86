// A scripted adapter for engine and scheduler tests: no processes. Each job
// "computes" its outputs as text that records the operation, its scalar
// arguments and the contents of its inputs, so a test can check which
// version of every file each task saw. Jobs can be held until released to
// observe what runs at the same time.
#ifndef GSRT_TESTS_SUPPORT_FAKE_ADAPTER_H_
#define GSRT_TESTS_SUPPORT_FAKE_ADAPTER_H_

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "adapters/adapter_defaults.h"
#include "runtime/base/clock.h"

namespace gs::testing {

class FakeAdapter : public AdapterDefaults {
 public:
  struct Behavior {
    int exit_code = 0;
    int fail_first = 0;       // attempts that fail with exit_code 1 first
    bool host_fails = false;  // report HostFailed instead
    // Exits 0 without writing its outputs; the error names the first one
    // by the path it was given, as the local adapter does.
    bool forget_outputs = false;
    std::string results;  // the worker's result text
  };

  // State shared with the test thread.
  struct Log {
    std::mutex mu;
    std::condition_variable cv;
    std::vector<JobSpec> submitted;
    int running = 0;
    int max_running = 0;
    bool hold = false;  // keep jobs running until Release()
    std::map<std::string, Behavior> script;
    std::map<std::string, int> attempts;
    std::function<void()> release;  // lets held jobs finish
    // Staging through Put/Get (hosts with a remote_dir), as (from, to).
    std::vector<std::pair<std::string, std::string>> puts, gets;
    std::vector<std::string> removes;
    // Each Sweep as "host owner keep...", in order.
    std::vector<std::string> sweeps;
    // Hosts (by name) that fail every job and transfer from now on.
    std::set<std::string> down;
    int reconnects = 0;
    // What the engine told through NoteBacklog, in order.
    std::vector<int> backlogs;
    // As a batch host: each submitted job is reported queued (batch id
    // "b<job id>"); jobs taken over (Adopt) and cancelled (Forget) by id.
    bool batch = false;
    // As a batch host whose master dies inside every submission: each job
    // is recorded as being submitted (dir "d<job id>") and never gets an
    // id. Jobs taken over without an id are logged as "submitting DIR".
    bool submission_hole = false;
    std::vector<std::string> adopted, forgotten;

    void ReleaseAll() {
      if (release) release();
    }

    // Waits (bounded) until `n` jobs run at once; false on timeout.
    bool WaitRunning(int n) {
      std::unique_lock<std::mutex> lock(mu);
      return cv.wait_for(lock, std::chrono::seconds(10),
                         [&] { return running >= n; });
    }
  };

  // With a `remote_dir` the host does not share the master's files: its
  // versions live under remote_dir and move through Put/Get (plain copies).
  FakeAdapter(boost::asio::io_context& io, Clock& clock, int slots, Log* log,
              std::string remote_dir = "", std::string name = "fake")
      : name_(std::move(name)),
        io_(io),
        clock_(clock),
        slots_(slots),
        log_(log),
        remote_dir_(std::move(remote_dir)) {
    log_->release = [this] { boost::asio::post(io_, [this] { Release(); }); };
  }

  std::string_view kind() const override { return "fake"; }
  Status Connect() override {
    return connected() ? Status::Ok()
                       : Status::Unavailable("host " + name_ + " is down");
  }
  int FreeSlots() const override {
    return slots_ - static_cast<int>(held_.size()) - busy_;
  }
  void NoteBacklog(int tasks) override {
    {
      std::lock_guard<std::mutex> lock(log_->mu);
      log_->backlogs.push_back(tasks);
    }
    log_->cv.notify_all();
  }

  void RecordSubmissionsWith(SubmissionRecorder record) override {
    record_submissions_ = std::move(record);
  }

  void Submit(JobSpec spec, DoneCallback done) override {
    bool hold;
    bool hole;
    {
      std::lock_guard<std::mutex> lock(log_->mu);
      hole = log_->submission_hole;
    }
    if (hole) {
      QueuedJob q;
      q.job = spec.id;
      q.task = spec.task;
      q.name = name_;
      q.dir = "d" + std::to_string(spec.id);
      // As a batch adapter does: from its own handler, before submitting.
      boost::asio::post(io_, [this, q] {
        if (record_submissions_) record_submissions_({q});
        {
          std::lock_guard<std::mutex> lock(log_->mu);
          ++log_->running;
        }
        log_->cv.notify_all();
      });
      held_.push_back({std::move(spec), std::move(done), clock_.Now()});
      return;
    }
    {
      std::lock_guard<std::mutex> lock(log_->mu);
      if (log_->batch) {
        QueuedJob q;
        q.job = spec.id;
        q.task = spec.task;
        q.batch_id = "b" + std::to_string(spec.id);
        q.name = name_;
        queued_.push_back(std::move(q));
      }
      log_->submitted.push_back(spec);
      ++log_->running;
      log_->max_running = std::max(log_->max_running, log_->running);
      hold = log_->hold;
    }
    log_->cv.notify_all();
    Seconds now = clock_.Now();
    if (hold) {
      held_.push_back({std::move(spec), std::move(done), now});
      return;
    }
    ++busy_;
    boost::asio::post(io_, [this, spec = std::move(spec),
                            done = std::move(done), now]() mutable {
      --busy_;
      Finish(spec, done, now);
    });
  }

  // The interrupted master's job ends now (its outputs written as a job
  // of that run would have), without being submitted again.
  void Adopt(QueuedJob job, JobSpec spec, DoneCallback done) override {
    {
      std::lock_guard<std::mutex> lock(log_->mu);
      log_->adopted.push_back(job.batch_id.empty() ? "submitting " + job.dir
                                                   : job.batch_id);
    }
    job.adopted = true;
    queued_.push_back(std::move(job));
    Seconds now = clock_.Now();
    ++busy_;
    boost::asio::post(io_, [this, spec = std::move(spec),
                            done = std::move(done), now]() mutable {
      --busy_;
      Finish(spec, done, now);
    });
  }
  void Forget(std::vector<QueuedJob> jobs) override {
    std::lock_guard<std::mutex> lock(log_->mu);
    for (const QueuedJob& j : jobs) log_->forgotten.push_back(j.batch_id);
  }
  std::vector<QueuedJob> TakeQueuedJobs() override {
    return std::exchange(queued_, {});
  }
  void Cancel(JobId) override {}
  void Shutdown() override { Release(); }

  bool shares_master_files() const override { return remote_dir_.empty(); }
  bool connected() const override {
    std::lock_guard<std::mutex> lock(log_->mu);
    return log_->down.count(name_) == 0;
  }
  void Reconnect(std::function<void(Status)> done) override {
    Status s = connected() ? Status::Ok() : Status::Unavailable("still down");
    {
      std::lock_guard<std::mutex> lock(log_->mu);
      ++log_->reconnects;
    }
    log_->cv.notify_all();
    boost::asio::post(io_, [done = std::move(done), s] { done(s); });
  }
  std::string work_dir() const override { return remote_dir_; }
  void Put(std::string from, std::string to, StatusCallback done) override {
    Copy(from, to, std::move(done), &Log::puts);
  }
  void Get(std::string from, std::string to, StatusCallback done) override {
    Copy(from, to, std::move(done), &Log::gets);
  }
  void Remove(std::string path) override {
    std::remove(path.c_str());
    std::lock_guard<std::mutex> lock(log_->mu);
    log_->removes.push_back(path);
  }
  void Sweep(std::string owner, std::vector<std::string> keep) override {
    std::string call = name_ + " " + owner;
    for (const std::string& name : keep) call += " " + name;
    {
      std::lock_guard<std::mutex> lock(log_->mu);
      log_->sweeps.push_back(std::move(call));
    }
    log_->cv.notify_all();
  }

  // Lets held jobs finish (call through the engine's io_context).
  void Release() {
    {
      std::lock_guard<std::mutex> lock(log_->mu);
      log_->hold = false;
    }
    auto held = std::move(held_);
    held_.clear();
    for (auto& h : held) Finish(h.spec, h.done, h.submitted);
  }

 private:
  std::vector<QueuedJob> queued_;
  SubmissionRecorder record_submissions_;
  struct Held {
    JobSpec spec;
    DoneCallback done;
    Seconds submitted;
  };

  void Copy(const std::string& from, const std::string& to, StatusCallback done,
            std::vector<std::pair<std::string, std::string>> Log::*list) {
    {
      std::lock_guard<std::mutex> lock(log_->mu);
      (log_->*list).push_back({from, to});
      if (log_->down.count(name_)) {
        boost::asio::post(io_, [done = std::move(done)] {
          done(Status::Unavailable("host is down"));
        });
        return;
      }
    }
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(to).parent_path(),
                                        ec);
    std::filesystem::copy_file(
        from, to, std::filesystem::copy_options::overwrite_existing, ec);
    Status s = ec ? Status::IoError("copy " + from + ": " + ec.message())
                  : Status::Ok();
    boost::asio::post(io_, [done = std::move(done), s] { done(s); });
  }

  static std::string ReadAll(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return "<none>";
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }

  void Finish(const JobSpec& spec, const DoneCallback& done,
              Seconds submitted) {
    Behavior b;
    int attempt;
    {
      std::lock_guard<std::mutex> lock(log_->mu);
      b = log_->script[spec.operation];
      attempt = ++log_->attempts[spec.operation];
      --log_->running;
    }
    JobReport report;
    report.id = spec.id;
    report.submitted = submitted;
    report.started = submitted;
    report.ended = clock_.Now();
    bool down;
    {
      std::lock_guard<std::mutex> lock(log_->mu);
      down = log_->down.count(name_) > 0;
    }
    if (b.host_fails || down) {
      report.outcome = HostFailed{"scripted"};
    } else if (b.forget_outputs) {
      Exited e;
      for (size_t i = 0; i < spec.params.size() && e.error.empty(); ++i) {
        if (spec.params[i].dest.empty()) continue;
        e.error = "declared output '" + spec.params[i].dest + "' (parameter " +
                  std::to_string(i) + ") was not written";
      }
      report.outcome = e;
    } else if (attempt <= b.fail_first || b.exit_code != 0) {
      Exited e;
      e.code = b.exit_code != 0 ? b.exit_code : 1;
      e.error = "exit code " + std::to_string(e.code);
      report.outcome = e;
    } else {
      std::string text = spec.operation + "(";
      for (const JobParam& p : spec.params) {
        if (p.kind == JobParam::Kind::kScalar) text += p.value + ",";
        if (!p.source.empty()) text += "[" + ReadAll(p.source) + "],";
      }
      text += ")";
      for (const JobParam& p : spec.params) {
        if (p.dest.empty()) continue;
        std::error_code ec;
        std::filesystem::create_directories(
            std::filesystem::path(p.dest).parent_path(), ec);
        std::ofstream out(p.dest, std::ios::binary | std::ios::trunc);
        out << text;
      }
      Exited e;
      e.results = b.results;
      report.outcome = e;
    }
    done(std::move(report));
  }

  std::string name_;
  boost::asio::io_context& io_;
  Clock& clock_;
  int slots_;
  int busy_ = 0;
  Log* log_;
  std::string remote_dir_;
  std::vector<Held> held_;
};

}  // namespace gs::testing

#endif  // GSRT_TESTS_SUPPORT_FAKE_ADAPTER_H_
