// Test helpers for the agent's logic: a runner adapter scripted by the
// test, and the master's end of a MemoryStream that speaks frames.
#ifndef GSRT_ADAPTERS_AGENT_AGENT_TEST_UTIL_H_
#define GSRT_ADAPTERS_AGENT_AGENT_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "adapters/adapter_defaults.h"
#include "adapters/agent/memory_stream.h"
#include "adapters/agent/protocol.h"

namespace gs::testing {

// Holds every job until the test finishes it.
class ScriptedRunner : public AdapterDefaults {
 public:
  explicit ScriptedRunner(boost::asio::io_context& io) : io_(io) {}

  std::string_view kind() const override { return "scripted"; }
  Status Connect() override { return connect_status; }
  int FreeSlots() const override { return 4 - static_cast<int>(jobs_.size()); }
  void Submit(JobSpec spec, DoneCallback done) override {
    submitted.push_back(spec);
    jobs_[spec.id] = std::move(done);
  }
  void Cancel(JobId id) override {
    cancelled.push_back(id);
    if (jobs_.count(id)) {
      boost::asio::post(io_, [this, id] { Finish(id, Cancelled{}); });
    }
  }
  void Shutdown() override {
    ++shutdowns;
    auto jobs = std::move(jobs_);
    jobs_.clear();
    for (auto& [id, done] : jobs) {
      JobReport r;
      r.id = id;
      r.outcome = Cancelled{};
      done(r);
    }
  }

  // Ends job `id` with `outcome`; times are made up but ordered.
  void Finish(JobId id, JobOutcome outcome) {
    auto it = jobs_.find(id);
    if (it == jobs_.end()) return;
    DoneCallback done = std::move(it->second);
    jobs_.erase(it);
    JobReport r;
    r.id = id;
    r.outcome = std::move(outcome);
    r.submitted = 100;
    r.started = 101;
    r.ended = 103;
    done(r);
  }
  size_t holding() const { return jobs_.size(); }

  Status connect_status;
  std::vector<JobSpec> submitted;
  std::vector<JobId> cancelled;
  int shutdowns = 0;

 private:
  boost::asio::io_context& io_;
  std::map<JobId, DoneCallback> jobs_;
};

// The master's end: sends messages, collects what comes back.
class FrameEnd {
 public:
  explicit FrameEnd(std::unique_ptr<MemoryStream> stream)
      : stream_(std::move(stream)) {
    stream_->Start(
        [this](std::string_view bytes) {
          decoder_.Append(bytes);
          while (true) {
            auto next = decoder_.Next();
            if (!next.ok()) {
              decode_error = next.status();
              return;
            }
            if (!next->has_value()) return;
            received.push_back(std::move(**next));
          }
        },
        [this](Status why) { closed = why; });
  }

  void Send(const agent::Message& m) { stream_->Write(agent::Encode(m)); }
  void SendRaw(std::string_view bytes) { stream_->Write(bytes); }
  MemoryStream& stream() { return *stream_; }

  // Messages of type T received so far.
  template <typename T>
  std::vector<T> All() const {
    std::vector<T> out;
    for (const agent::Message& m : received) {
      if (auto* t = std::get_if<T>(&m)) out.push_back(*t);
    }
    return out;
  }
  template <typename T>
  size_t Count() const {
    return All<T>().size();
  }

  std::vector<agent::Message> received;
  std::optional<Status> closed;
  Status decode_error;

 private:
  std::unique_ptr<MemoryStream> stream_;
  agent::FrameDecoder decoder_;
};

}  // namespace gs::testing

#endif  // GSRT_ADAPTERS_AGENT_AGENT_TEST_UTIL_H_
