// Running short commands: synchronously (a poll loop on the session's
// socket) and asynchronously (a session listener with a clock timer).
#include "adapters/ssh/ssh_remote.h"

#include <libssh/libssh.h>

#include <boost/asio/post.hpp>
#include <chrono>
#include <sstream>

#include "adapters/ssh/ssh_exec.h"
#include "adapters/ssh/ssh_text.h"
#include "runtime/base/shell_quote.h"

namespace gs {
namespace {

using SteadyClock = std::chrono::steady_clock;

// Input kept queued ahead of the channel while streaming stdin.
constexpr size_t kStdinAhead = 1 << 20;

CommandResult ResultOf(const ExecChannel& exec, std::string out,
                       std::string err) {
  CommandResult r;
  r.exit_code = exec.exit_status().value_or(-1);
  r.signal = exec.exit_signal();
  r.out = std::move(out);
  r.err = std::move(err);
  return r;
}

Status TooMuchOutput(const SshSession& session, const std::string& line,
                     size_t max) {
  return Status::IoError("`" + ShortCommand(line) + "` on " +
                         session.describe() + " wrote more than " +
                         std::to_string(max) + " bytes of output");
}

Status Overdue(const SshSession& session, const std::string& line,
               Seconds timeout, const ExecChannel& exec) {
  return Status::TimedOut("`" + ShortCommand(line) + "` on " +
                          session.describe() + " did not finish within " +
                          SecondsText(timeout) + " (" +
                          exec.DescribeProgress() + ")");
}

// Feeds stdin from options.stdin_source while little is queued.
Status FeedStdin(ExecChannel& exec, const RunOptions& options, bool* ended) {
  while (!*ended && exec.pending() < kStdinAhead) {
    StatusOr<std::string> chunk = options.stdin_source();
    if (!chunk.ok()) return chunk.status();
    if (chunk->empty()) {
      *ended = true;
      exec.CloseStdin();
    } else {
      exec.Write(*chunk);
    }
  }
  return Status::Ok();
}

StatusOr<CommandResult> RunLine(SshSession& session, const std::string& line,
                                const RunOptions& options) {
  if (session.lost()) return session.lost_status();
  const auto deadline =
      SteadyClock::now() + std::chrono::duration_cast<SteadyClock::duration>(
                               std::chrono::duration<double>(options.timeout));
  ExecChannel exec(session, line);
  bool stdin_ended = !options.stdin_source;
  if (!options.stdin_data.empty()) exec.Write(options.stdin_data);
  if (stdin_ended) exec.CloseStdin();
  std::string out, err;
  StatusOr<CommandResult> result = Status::Internal("unfinished");
  while (true) {
    if (!stdin_ended) {
      if (Status st = FeedStdin(exec, options, &stdin_ended); !st.ok()) {
        exec.Signal("KILL");
        result = st;
        break;
      }
    }
    const uint64_t mark = session.InputMark();
    const bool more = exec.Step(&out, &err);
    if (exec.failed()) {
      result = exec.failure();
      break;
    }
    if (out.size() + err.size() > options.max_output) {
      exec.Signal("KILL");
      result = TooMuchOutput(session, line, options.max_output);
      break;
    }
    if (exec.finished()) {
      result = ResultOf(exec, std::move(out), std::move(err));
      break;
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - SteadyClock::now());
    if (left.count() <= 0) {
      exec.Signal("KILL");
      ssh_blocking_flush(session.raw(), 1000);  // before the channel closes
      result = Overdue(session, line, options.timeout, exec);
      break;
    }
    if (!more) session.WaitSocket(static_cast<int>(left.count()), mark);
  }
  session.Kick();  // other channels may have data that libssh buffered
  return result;
}

// RunCommandAsync's state: lives until `done` has fired.
class AsyncCommand : public SshSession::Listener,
                     public std::enable_shared_from_this<AsyncCommand> {
 public:
  AsyncCommand(std::shared_ptr<SshSession> session, std::string line,
               RunOptions options,
               std::function<void(StatusOr<CommandResult>)> done)
      : session_(std::move(session)),
        line_(std::move(line)),
        options_(std::move(options)),
        done_(std::move(done)),
        exec_(std::make_unique<ExecChannel>(*session_, line_)) {}

  void Begin() {
    self_ = shared_from_this();
    stdin_ended_ = !options_.stdin_source;
    if (!options_.stdin_data.empty()) exec_->Write(options_.stdin_data);
    if (stdin_ended_) exec_->CloseStdin();
    timer_ =
        session_->clock().After(options_.timeout, [weak = weak_from_this()] {
          if (auto self = weak.lock()) {
            self->exec_->Signal("KILL");
            self->Finish(Overdue(*self->session_, self->line_,
                                 self->options_.timeout, *self->exec_));
          }
        });
    session_->AddListener(this);
  }

 private:
  bool OnSessionReady() override {
    if (finished_) return false;
    if (!stdin_ended_) {
      if (Status st = FeedStdin(*exec_, options_, &stdin_ended_); !st.ok()) {
        exec_->Signal("KILL");
        Finish(st);
        return false;
      }
    }
    const bool more = exec_->Step(&out_, &err_);
    if (exec_->failed()) {
      Finish(exec_->failure());
    } else if (out_.size() + err_.size() > options_.max_output) {
      exec_->Signal("KILL");
      Finish(TooMuchOutput(*session_, line_, options_.max_output));
    } else if (exec_->finished()) {
      Finish(ResultOf(*exec_, std::move(out_), std::move(err_)));
    }
    return more && !finished_;
  }

  void OnSessionLost(const Status& why) override {
    Finish(why.WithContext("`" + ShortCommand(line_) + "`"));
  }

  void Finish(StatusOr<CommandResult> result) {
    if (finished_) return;
    finished_ = true;
    session_->RemoveListener(this);
    timer_.reset();
    exec_.reset();
    auto keep = std::move(self_);  // this dies when `keep` goes
    auto done = std::move(done_);
    done(std::move(result));
  }

  std::shared_ptr<SshSession> session_;  // outlives exec_
  const std::string line_;
  RunOptions options_;
  std::function<void(StatusOr<CommandResult>)> done_;
  std::unique_ptr<ExecChannel> exec_;
  std::unique_ptr<Timer> timer_;
  std::shared_ptr<AsyncCommand> self_;
  std::string out_, err_;
  bool stdin_ended_ = true;
  bool finished_ = false;
};

}  // namespace

StatusOr<CommandResult> RunCommand(SshSession& session,
                                   const std::vector<std::string>& argv,
                                   const RunOptions& options) {
  StatusOr<std::string> line = ShellCommandLine(argv);
  if (!line.ok()) return line.status();
  return RunLine(session, *line, options);
}

void RunCommandAsync(std::shared_ptr<SshSession> session,
                     const std::vector<std::string>& argv, RunOptions options,
                     std::function<void(StatusOr<CommandResult>)> done) {
  StatusOr<std::string> line = ShellCommandLine(argv);
  if (!line.ok()) {
    boost::asio::post(session->io(), [done = std::move(done),
                                      st = line.status()] { done(st); });
    return;
  }
  auto command = std::make_shared<AsyncCommand>(
      session, std::move(*line), std::move(options), std::move(done));
  command->Begin();
}

}  // namespace gs
