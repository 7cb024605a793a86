#include "runtime/observe/trace_builder.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "runtime/observe/slot_lanes.h"

namespace gs {

namespace {

using nlohmann::json;

constexpr int kMasterPid = 0;
constexpr int kTransferTid = 1000;

json Metadata(const char* what, int pid, int tid, const std::string& name) {
  return json{{"ph", "M"},
              {"name", what},
              {"pid", pid},
              {"tid", tid},
              {"args", {{"name", name}}}};
}

}  // namespace

int64_t TraceBuilder::Micros(Seconds t) const {
  return std::llround((t - origin_) * 1e6);
}

void TraceBuilder::RunStarted(Seconds started,
                              const std::vector<std::string>& hosts) {
  origin_ = started;
  Emit(Metadata("process_name", kMasterPid, 0, "master").dump());
  for (const std::string& h : hosts) HostLanes(h);
}

TraceBuilder::Lanes& TraceBuilder::HostLanes(const std::string& host) {
  auto [it, added] = hosts_.try_emplace(host);
  if (added) {
    it->second.pid = next_pid_++;
    Emit(Metadata("process_name", it->second.pid, 0, host).dump());
    Emit(json{{"ph", "M"},
              {"name", "process_sort_index"},
              {"pid", it->second.pid},
              {"args", {{"sort_index", it->second.pid}}}}
             .dump());
  }
  return it->second;
}

int TraceBuilder::TakeLane(std::vector<int64_t>* ends, int64_t start,
                           int64_t end, int pid, int first_tid,
                           const char* label) {
  const size_t lanes = ends->size();
  const size_t lane = TakeSlotLane(ends, start, end);
  const int tid = first_tid + static_cast<int>(lane);
  if (lane < lanes) return tid;  // an existing lane, named already
  Emit(Metadata("thread_name", pid, tid,
                std::string(label) + " " + std::to_string(ends->size()))
           .dump());
  return tid;
}

void TraceBuilder::TaskSubmitted(const TaskRecord& task) {
  if (!task.depends_on.empty()) depends_on_[task.task] = task.depends_on;
}

void TraceBuilder::JobEnded(const JobRecord& job) {
  Lanes& lanes = HostLanes(job.host);
  // A job that never started occupies [submitted, ended]: what it cost.
  const Seconds from = job.started > 0 ? job.started : job.submitted;
  const int64_t start = Micros(from);
  const int64_t end = std::max(start, Micros(job.ended > 0 ? job.ended : from));
  const int tid = TakeLane(&lanes.job_ends, start, end, lanes.pid, 1, "slot");
  uint32_t attempt = job.replica ? attempts_[job.task] : ++attempts_[job.task];
  // One event per attempt is the hot path: written as text with the
  // strings escaped by the JSON library, not built as a json tree (a tree
  // costs several allocations per field).
  std::string e;
  e.reserve(320);
  e += "{\"ph\":\"X\",\"name\":";
  e += json(job.operation + " #" + std::to_string(job.task)).dump();
  e += job.outcome == OutcomeClass::kOk ? ",\"cat\":\"job\""
                                        : ",\"cat\":\"job,failed\"";
  e += ",\"pid\":" + std::to_string(lanes.pid);
  e += ",\"tid\":" + std::to_string(tid);
  e += ",\"ts\":" + std::to_string(start);
  e += ",\"dur\":" + std::to_string(end - start);
  e += ",\"args\":{\"task\":" + std::to_string(job.task);
  e += ",\"job\":" + std::to_string(job.job);
  e += ",\"attempt\":" + std::to_string(attempt);
  e += ",\"outcome\":\"";
  e += OutcomeClassName(job.outcome);
  e += "\",\"bytes_in\":" + std::to_string(job.bytes_in);
  e += ",\"bytes_out\":" + std::to_string(job.bytes_out);
  e += job.replica ? ",\"replica\":true" : ",\"replica\":false";
  if (job.exit_code) e += ",\"exit_code\":" + std::to_string(*job.exit_code);
  if (!job.error.empty()) e += ",\"error\":" + json(job.error).dump();
  if (!job.log_dir.empty()) e += ",\"log_dir\":" + json(job.log_dir).dump();
  if (job.started > 0 && job.submitted > 0) {
    // Staging and queueing; as the json library writes a double.
    e += ",\"waited_s\":" + json(job.started - job.submitted).dump();
  }
  if (auto d = depends_on_.find(job.task); d != depends_on_.end()) {
    e += ",\"depends_on\":" + json(d->second).dump();
  }
  e += "}}";
  Emit(e);
  ++jobs_;
  if (job.outcome != OutcomeClass::kOk) return;
  // The first successful attempt is the one whose outputs were used.
  auto [self, added] =
      placed_.try_emplace(job.task, Placed{lanes.pid, tid, start, end});
  if (!added) return;
  auto d = depends_on_.find(job.task);
  if (d == depends_on_.end()) return;
  for (TaskId producer : d->second) {
    auto p = placed_.find(producer);
    if (p == placed_.end()) continue;  // reused from an earlier run
    const uint64_t id = ++flows_;
    // Each end lies inside its slice, so viewers bind it there.
    const int64_t out_ts = std::max(p->second.start, p->second.end - 1);
    Emit(json{{"ph", "s"},
              {"name", "dependency"},
              {"cat", "dependency"},
              {"id", id},
              {"pid", p->second.pid},
              {"tid", p->second.tid},
              {"ts", out_ts}}
             .dump());
    Emit(json{{"ph", "f"},
              {"bp", "e"},
              {"name", "dependency"},
              {"cat", "dependency"},
              {"id", id},
              {"pid", lanes.pid},
              {"tid", tid},
              {"ts", start}}
             .dump());
  }
}

void TraceBuilder::Event(const RunEvent& event) {
  const int pid = event.host.empty() ? kMasterPid : HostLanes(event.host).pid;
  json args = json::object();
  if (!event.detail.empty()) args["detail"] = event.detail;
  if (event.task != kNoTaskRecord) args["task"] = event.task;
  if (event.kind == "transfer") {
    args["bytes"] = event.bytes;
    const int64_t start = Micros(event.time);
    const int64_t end = std::max(start, Micros(event.time + event.duration));
    std::vector<int64_t>* ends = event.host.empty()
                                     ? &master_transfer_ends_
                                     : &hosts_[event.host].transfer_ends;
    const int tid = TakeLane(ends, start, end, pid, kTransferTid, "transfers");
    Emit(json{{"ph", "X"},
              {"name", "transfer " + event.detail},
              {"cat", "transfer"},
              {"pid", pid},
              {"tid", tid},
              {"ts", start},
              {"dur", end - start},
              {"args", std::move(args)}}
             .dump());
    return;
  }
  Emit(json{{"ph", "i"},
            {"name", event.kind},
            {"cat", "event"},
            {"s", event.host.empty() ? "g" : "p"},
            {"pid", pid},
            {"tid", 0},
            {"ts", Micros(event.time)},
            {"args", std::move(args)}}
           .dump());
}

}  // namespace gs
