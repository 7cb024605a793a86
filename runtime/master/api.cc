// The C API (gs/gs.h) and the master side of the stub ABI (gs_call), over
// one process-wide Engine.
#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <memory>
#include <string>

#include "gs/gs.h"
#include "gs/gs_abi.h"
#include "runtime/base/messages.h"
#include "runtime/base/result_values.h"
#include "runtime/engine/engine.h"
#include "runtime/engine/job_builder.h"
#include "runtime/master/master_setup.h"

namespace {

std::unique_ptr<gs::Engine>& TheEngine() {
  static std::unique_ptr<gs::Engine> engine;
  return engine;
}

// What the master tells the user, the engine's messages included.
gs::MessageSink& Messages() { return gs::MasterMessages(); }

constexpr gs::MessageKind kError = gs::MessageKind::kError;
constexpr gs::MessageKind kWarning = gs::MessageKind::kWarning;

// Why the last GS_On failed, empty if it did not: a program that ignores
// GS_On's -1 is told the real cause at its next call, not "before GS_On".
std::string& StartFailure() {
  static std::string why;
  return why;
}

gs::Engine* RequireEngine(const char* what) {
  gs::Engine* engine = TheEngine().get();
  if (engine != nullptr) return engine;
  if (!StartFailure().empty()) {
    gs::Sayf(Messages(), kError,
             "gsrt: %s called after GS_On() failed: %s\n"
             "gsrt: GS_On() returns -1 when gsrt cannot start; check its "
             "value and stop the program (the README's example does)\n",
             what, StartFailure().c_str());
  } else {
    gs::Sayf(Messages(), kError,
             "gsrt: %s called before GS_On(); call GS_On() first\n", what);
  }
  std::exit(1);
}

// At exit with the engine still running: the program forgot GS_Off. Its
// tasks may still run and its outputs are still under work_dir/data, so the
// run is finished as GS_Off would, loudly; a failed run must not exit 0.
void FinishForgottenRun() {
  std::unique_ptr<gs::Engine> engine = std::move(TheEngine());
  if (!engine) return;
  Messages().Say(kWarning,
                 "gsrt: the program exited without GS_Off(); finishing the run "
                 "as GS_Off() would (waiting for its tasks, putting its files "
                 "in place). Call GS_Off() before the program ends.\n");
  if (engine->Stop() != 0) {
    std::fflush(nullptr);
    std::_Exit(1);
  }
}

}  // namespace

extern "C" {

int GS_On(void) {
  if (TheEngine()) {
    Messages().Say(kWarning,
                   "gsrt: GS_On() called twice; ignoring the second call\n");
    return 0;
  }
  auto engine = gs::StartMasterEngine(Messages());
  if (!engine.ok()) {
    StartFailure() = engine.status().message();
    gs::Sayf(Messages(), kError, "gsrt: cannot start: %s\n",
             StartFailure().c_str());
    return -1;
  }
  StartFailure().clear();
  TheEngine() = std::move(engine).value();
  // Registered after TheEngine's static: runs before it is destroyed.
  static bool registered = std::atexit(FinishForgottenRun) == 0;
  (void)registered;
  return 0;
}

int GS_Off(int code) {
  std::unique_ptr<gs::Engine> engine = std::move(TheEngine());
  if (!engine) {
    if (!StartFailure().empty()) {
      gs::Sayf(Messages(), kError, "gsrt: GS_Off() after GS_On() failed: %s\n",
               StartFailure().c_str());
    } else {
      Messages().Say(kError, "gsrt: GS_Off() without GS_On()\n");
    }
    return 1;
  }
  int result = engine->Stop();
  return result != 0 ? result : (code != 0 ? 1 : 0);
}

void GS_Barrier(void) { RequireEngine("GS_Barrier")->Barrier(); }

int GS_Open(const char* name, int mode) {
  if (name == nullptr) {
    errno = EINVAL;
    return -1;
  }
  auto fd = RequireEngine("GS_Open")->Open(name, mode);
  if (!fd.ok()) {
    gs::Sayf(Messages(), kError, "gsrt: %s\n", fd.status().message().c_str());
    errno =
        fd.status().code() == gs::Status::Code::kInvalidArgument ? EINVAL : EIO;
    return -1;
  }
  return *fd;
}

int GS_Close(int fd) {
  gs::Status s = RequireEngine("GS_Close")->Close(fd);
  if (!s.ok()) {
    gs::Sayf(Messages(), kError, "gsrt: %s\n", s.message().c_str());
    errno = EBADF;
    return -1;
  }
  return 0;
}

FILE* GS_FOpen(const char* name, int mode) {
  int fd = GS_Open(name, mode);
  if (fd < 0) return nullptr;
  FILE* file = ::fdopen(fd, mode == R ? "r" : (mode == W ? "w" : "a"));
  if (file == nullptr) GS_Close(fd);
  return file;
}

int GS_FClose(FILE* file) {
  if (file == nullptr) {
    errno = EINVAL;
    return EOF;
  }
  int fd = ::fileno(file);
  int closed = std::fclose(file);
  // Only the master thread opens descriptors through GS_Open, so `fd` still
  // names our entry even if the number was reused meanwhile.
  gs::Status s = RequireEngine("GS_FClose")->Close(fd, /*already_closed=*/true);
  if (!s.ok()) {
    gs::Sayf(Messages(), kError, "gsrt: %s\n", s.message().c_str());
    return EOF;
  }
  return closed;
}

void gs_call(const gs_operation* op, const gs_arg* args, void* return_slot) {
  gs::Engine* engine = RequireEngine(op->name);
  gs::Status values = gs::CheckCallValues(*op, args);
  if (!values.ok()) {
    // Like a wrong argument to a function: the program is wrong here.
    gs::Sayf(Messages(), kError, "gsrt: %s; stopping the program\n",
             values.message().c_str());
    GS_Off(1);
    std::exit(1);
  }
  gs::TaskId task = engine->Submit(op, args);
  if (task == gs::kRefusedTask) {
    // No host can ever run it: running on would only fail later.
    gs::Sayf(Messages(), kError, "gsrt: %s; stopping the program\n",
             engine->Refusal(op).message().c_str());
    GS_Off(1);
    std::exit(1);
  }
  bool synchronous = op->return_type != GS_TYPE_VOID;
  for (int i = 0; i < op->num_params && !synchronous; ++i) {
    synchronous = gs::IsResultParam(op->params[i]);
  }
  if (!synchronous) return;
  gs::Status s = engine->WaitForResults(task, args, return_slot);
  if (!s.ok()) {
    // The sequential program cannot go on without this value; the
    // message says why and what to do (runtime/engine/sync_stop.h).
    gs::Sayf(Messages(), kError, "gsrt: %s\n", s.message().c_str());
    GS_Off(1);
    std::exit(1);
  }
}

}  // extern "C"
