// The GS_* API as plain sequential calls, for linking a master directly
// with its functions (gsrt_add_application ... SEQUENTIAL): the reference
// run that a parallel run must reproduce, and a way to debug functions.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <system_error>

#include "gs/gs.h"

namespace {

// A parallel run creates the directories of the files it writes (it moves
// each result into place); so does the sequential build, so that both
// behave the same on a missing directory. Errors are left to open().
void MakeParentFor(const char* name, int mode) {
  if (mode != W && mode != A) return;
  const std::filesystem::path parent =
      std::filesystem::path(name).parent_path();
  std::error_code ec;
  if (!parent.empty()) std::filesystem::create_directories(parent, ec);
}

}  // namespace

extern "C" {

int GS_On(void) { return 0; }
int GS_Off(int code) { return code != 0 ? 1 : 0; }
void GS_Barrier(void) {}

int GS_Open(const char* name, int mode) {
  MakeParentFor(name, mode);
  switch (mode) {
    case R:
      return ::open(name, O_RDONLY | O_CLOEXEC);
    case W:
      return ::open(name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    case A:
      return ::open(name, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  }
  errno = EINVAL;
  return -1;
}

int GS_Close(int fd) { return ::close(fd); }

FILE* GS_FOpen(const char* name, int mode) {
  MakeParentFor(name, mode);
  switch (mode) {
    case R:
      return std::fopen(name, "r");
    case W:
      return std::fopen(name, "w");
    case A:
      return std::fopen(name, "a");
  }
  errno = EINVAL;
  return nullptr;
}

int GS_FClose(FILE* file) { return std::fclose(file); }

}  // extern "C"
