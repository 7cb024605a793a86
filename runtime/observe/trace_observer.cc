#include "runtime/observe/trace_observer.h"

namespace gs {

namespace {
constexpr size_t kFlushBytes = 64 * 1024;
constexpr auto kFlushEvery = std::chrono::milliseconds(500);
}  // namespace

StatusOr<std::shared_ptr<TraceObserver>> TraceObserver::Create(
    const std::string& path, MessageSink* messages) {
  auto file = TraceFile::Create(path);
  if (!file.ok()) return file.status();
  return std::shared_ptr<TraceObserver>(new TraceObserver(
      std::move(file).value(), messages ? *messages : StderrMessages()));
}

TraceObserver::TraceObserver(std::unique_ptr<TraceFile> file,
                             MessageSink& messages)
    : messages_(messages),
      file_(std::move(file)),
      builder_([this](const std::string& e) { file_->Append(e); }),
      last_flush_(std::chrono::steady_clock::now()) {}

void TraceObserver::OnRunStarted(Seconds started,
                                 const std::vector<std::string>& hosts) {
  std::lock_guard<std::mutex> lock(mu_);
  builder_.RunStarted(started, hosts);
  MaybeFlushLocked();
}

void TraceObserver::OnTaskSubmitted(const TaskRecord& task) {
  std::lock_guard<std::mutex> lock(mu_);
  builder_.TaskSubmitted(task);
}

void TraceObserver::OnJobEnded(const JobRecord& job) {
  std::lock_guard<std::mutex> lock(mu_);
  builder_.JobEnded(job);
  MaybeFlushLocked();
}

void TraceObserver::OnEvent(const RunEvent& event) {
  std::lock_guard<std::mutex> lock(mu_);
  builder_.Event(event);
  MaybeFlushLocked();
}

void TraceObserver::OnTaskEnded(const TaskEnd& end) {
  if (end.state != "reused") return;
  RunEvent e{"reused", end.time};
  e.task = end.task;
  e.detail = "results of an earlier run";
  std::lock_guard<std::mutex> lock(mu_);
  builder_.Event(e);
  MaybeFlushLocked();
}

void TraceObserver::OnRunEnded(Seconds, RunStatus) {
  Status s = Flush();
  if (!s.ok()) {
    Sayf(messages_, MessageKind::kWarning, "gsrt: warning: %s\n",
         s.message().c_str());
  }
}

Status TraceObserver::Flush() {
  std::lock_guard<std::mutex> lock(mu_);
  last_flush_ = std::chrono::steady_clock::now();
  return file_->Flush();
}

uint64_t TraceObserver::jobs() const {
  std::lock_guard<std::mutex> lock(mu_);
  return builder_.jobs();
}

uint64_t TraceObserver::flows() const {
  std::lock_guard<std::mutex> lock(mu_);
  return builder_.flows();
}

void TraceObserver::MaybeFlushLocked() {
  const auto now = std::chrono::steady_clock::now();
  if (file_->buffered() < kFlushBytes && now - last_flush_ < kFlushEvery) {
    return;
  }
  last_flush_ = now;
  Status s = file_->Flush();
  // A full disk should not stop the run; say so once.
  if (!s.ok() && !warned_) {
    warned_ = true;
    Sayf(messages_, MessageKind::kWarning, "gsrt: warning: %s\n",
         s.message().c_str());
  }
}

}  // namespace gs
