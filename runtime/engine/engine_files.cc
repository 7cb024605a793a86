// The engine's side of files the master touches itself (GS_Open, GS_Close)
// and of the end of a run (GS_Off); MasterFiles (master_files.h) keeps the
// open descriptors and puts the final versions under the user's names.
#include <fcntl.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <cerrno>
#include <chrono>
#include <cstdio>

#include "gs/gs.h"
#include "runtime/engine/engine.h"
#include "runtime/engine/engine_hosts.h"
#include "runtime/engine/result_cache.h"
#include "runtime/engine/resume_journal.h"
#include "runtime/engine/user_file_names.h"
#include "runtime/graph/dot_writer.h"
#include "runtime/history/history.h"

namespace gs {

// Called by MasterFiles under mu_, on the master's thread.
Status Engine::FilesLink::WaitVersion(MutexLock& lock, VersionId v,
                                      const char* name) {
  return e_.WaitVersionLocked(lock, v, name);
}

Status Engine::FilesLink::BringToMaster(MutexLock& lock, VersionId v) {
  return e_.BringToMasterLocked(lock, v);
}

void Engine::FilesLink::Wake() { e_.WakeLocked(); }

Status Engine::WaitVersionLocked(MutexLock& lock, VersionId v,
                                 const char* name) {
  waits_.Wait(lock, [&] {
    mu_.AssertHeld();  // the gate asks with the lock held
    return program_.graph.version(v).state != VersionState::kPending;
  });
  if (program_.graph.version(v).state == VersionState::kLost) {
    return Status::FailedPrecondition(
        std::string("'") + name +
        "' cannot be opened: the task that writes it failed");
  }
  return Status::Ok();
}

StatusOr<int> Engine::Open(const char* name, int mode) {
  if (mode != R && mode != W && mode != A) {
    return Status::InvalidArgument("GS_Open: mode must be R, W or A");
  }
  MutexLock lock(&mu_);
  FileId f = program_.files.Intern(name);
  MasterFiles::OpenFile entry;
  std::string path;
  int flags = 0;
  if (mode == R || mode == A) {
    VersionId v = program_.graph.LatestVersion(f);
    Status s = WaitVersionLocked(lock, v, name);
    if (s.ok()) s = BringToMasterLocked(lock, v);
    if (!s.ok()) return s;
    // Hold it so it is not collected while open or copied.
    program_.graph.AddReader(v);
    entry.read = v;
    path = mover_.places().VersionPath(v);
    flags = O_RDONLY;
  }
  if (mode == W || mode == A) {
    VersionId nv = program_.graph.NewVersion(f, kMasterTask);
    entry.write = nv;
    std::string source = path;
    path = mover_.places().VersionPath(nv);
    flags = O_WRONLY | O_CREAT | (mode == A ? O_APPEND : O_TRUNC);
    if (mode == A) {
      lock.Unlock();
      Status copied;
      if (work_dir_.fs().Stat(source).exists)
        copied = work_dir_.fs().CopyFile(source, path);
      lock.Lock();
      program_.graph.ReleaseReader(entry.read);
      entry.read = kNoVersion;
      if (!copied.ok()) {
        program_.graph.version(nv).state = VersionState::kLost;
        return Status::IoError(
            std::string("GS_Open ") + name +
            ": cannot copy for appending: " + copied.message());
      }
    }
  }
  // The user's program gets a real descriptor: not a call of the seam.
  int fd = ::open(path.c_str(), flags | O_CLOEXEC, 0644);
  if (fd < 0) {
    int err = errno;
    if (entry.read != kNoVersion) program_.graph.ReleaseReader(entry.read);
    if (entry.write != kNoVersion) {
      // Nothing will ever be written: readers of this version must not wait.
      program_.graph.version(entry.write).state = VersionState::kLost;
    }
    return Status::FromErrno(std::string("GS_Open ") + name, err);
  }
  master_files_.Opened(fd, entry);
  return fd;
}

Status Engine::Close(int fd, bool already_closed) {
  MasterFiles::OpenFile entry;
  {
    MutexLock lock(&mu_);
    if (!master_files_.TakeOpen(fd, &entry)) {
      return Status::InvalidArgument("GS_Close: descriptor " +
                                     std::to_string(fd) +
                                     " was not opened with GS_Open");
    }
  }
  bool closed = already_closed || ::close(fd) == 0;
  int err = errno;
  std::vector<std::string> doomed;
  {
    MutexLock lock(&mu_);
    if (entry.read != kNoVersion) program_.graph.ReleaseReader(entry.read);
    if (entry.write != kNoVersion) {
      std::vector<TaskId> ready;
      program_.graph.MarkAvailable(entry.write, &ready);
      for (TaskId t : ready) dispatcher_.AddReady(t);
      if (!ready.empty()) WakeLocked();
    }
    mover_.CollectGarbage(mu_, &doomed);
    waits_.NotifyIfWaiting();
  }
  mover_.RemoveFiles(doomed);
  if (!closed) return Status::FromErrno("GS_Close", err);
  return Status::Ok();
}

int Engine::Stop() {
  if (!loop_.made()) return 1;
  MutexLock lock(&mu_);
  waits_.Wait(lock, [&] {
    mu_.AssertHeld();  // the gate asks with the lock held
    return stats_.all_finished();
  });
  if (memory_.journal) RecoverFinalVersionsLocked(lock);
  if (memory_.cache) {
    // The store links the version files: every output is stored before
    // the final versions move. Bounded: a host that stops answering
    // leaves its outputs unstored (their tasks run again next time).
    waits_.Begin();
    bool settled = waits_.gate().wait_for(lock, std::chrono::minutes(5), [&] {
      mu_.AssertHeld();  // the gate asks with the lock held
      return memory_.cache->Idle();
    });
    waits_.Leave();
    if (!settled) {
      stats_.notes.push_back(
          "reuse: some outputs could not be kept in the store within 5 "
          "minutes; their tasks run again next time");
    }
  }
  master_files_.CloseForgotten();
  // Jobs may still be scheduled while the final versions are fetched: a
  // host lost then has its results recomputed.
  master_files_.FinalizeAll(lock);
  waits_.Wait(lock, [&] {
    mu_.AssertHeld();  // the gate asks with the lock held
    return stats_.all_finished();
  });
  sweeper_.FinalSweep(lock);
  loop_.set_stopping(mu_);
  waits_.gate().MasterLeaves();
  lock.Unlock();
  // The engine thread may still be inside a handler; stop it before the
  // adapters go away.
  boost::asio::post(loop_.io(), [this] { ShutdownOnEngineThread(); });
  loop_.Join();
  CleanUpAfterRun();
  lock.Lock();  // only this thread is left; the stats are final
  std::string summary =
      FormatSummary(stats_, loop_.clock().Now() - recorder_.started());
  const bool ok = stats_.failed + stats_.futile == 0;
  const int code = ok && stats_.lost_outputs == 0 ? 0 : 1;
  lock.Unlock();
  console_.messages().Say(MessageKind::kSummary, summary);
  // After the summary: observers may add to it (summary_observer.h).
  recorder_.ReportRunEnded(&mu_, ok ? RunStatus::kOk : RunStatus::kFailed);
  return code;
}

void Engine::CleanUpAfterRun() {
  work_dir_.CleanUp();
  bool ok;
  {
    // The engine thread has ended: the lock is free and taken at once.
    MutexLock lock(&mu_);
    if (!options_.dot_path.empty() &&
        !work_dir_.fs()
             .WriteFile(options_.dot_path,
                        WriteDot(program_.graph, program_.ops))
             .ok()) {
      stats_.notes.push_back("cannot write GSRT_DOT file " + options_.dot_path);
    }
    console_.progress().Clear();
    ok = stats_.failed + stats_.futile == 0;
  }
  RecordPending();  // the last tasks' ends and events
  if (memory_.cache) memory_.cache->End();
  Status s = recorder_.EndRun(ok ? RunStatus::kOk : RunStatus::kFailed);
  if (!s.ok()) recorder_.WarnHistory(s);
}

}  // namespace gs
