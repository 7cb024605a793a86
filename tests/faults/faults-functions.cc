// The functions of the fault-test pipeline. Faults are switched on by
// files in the `switches` directory (a path every host of the test can
// see, since they all run on this machine):
//   crash-L-I  step (L, I) crashes (abort) the first time it runs;
//   hang-L-I   step (L, I) hangs (sleeps an hour) the first time it runs;
//   throw-L-I  step (L, I) throws a std::runtime_error every time it runs;
//   noout-L-I  step (L, I) returns without writing its output, every time;
//   speak      every step writes this file's first line and (L, I) to
//              stderr, so the job leaves a log (tests/job_numbers_test.sh).
//   shout-L-I  step (L, I) writes this file's lines to stderr before any
//              other switch acts (tests/ssh_failed_logs_test.sh).
// "The first time" is decided by creating a marker with O_EXCL, so exactly
// one attempt misbehaves whatever host it runs on.
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "faults.h"

namespace {

bool Exists(const std::string& path) {
  return ::access(path.c_str(), F_OK) == 0;
}

// True for the one caller that creates `marker`.
bool FirstTime(const std::string& marker) {
  int fd = ::open(marker.c_str(), O_CREAT | O_EXCL | O_WRONLY, 0600);
  if (fd < 0) return false;
  ::close(fd);
  return true;
}

}  // namespace

void seed(const char* dst, int index) {
  std::ofstream out(dst, std::ios::binary);
  out << "column " << index << "\n";
}

void step(const char* src, const char* dst, int level, int index, int work_ms,
          const char* switches) {
  const std::string key = std::to_string(level) + "-" + std::to_string(index);
  const std::string dir = switches ? switches : "";
  if (!dir.empty()) {
    std::ifstream shout(dir + "/shout-" + key);
    for (std::string line; std::getline(shout, line);) {
      std::fprintf(stderr, "%s\n", line.c_str());
    }
    std::fflush(stderr);
    if (Exists(dir + "/crash-" + key) && FirstTime(dir + "/crashed-" + key)) {
      std::abort();
    }
    if (Exists(dir + "/throw-" + key)) {
      throw std::runtime_error("level " + std::to_string(level) + " index " +
                               std::to_string(index) + " told to throw");
    }
    if (Exists(dir + "/noout-" + key)) return;
    if (Exists(dir + "/hang-" + key) && FirstTime(dir + "/hung-" + key)) {
      ::sleep(3600);
    }
    std::ifstream speak(dir + "/speak");
    std::string line;
    if (std::getline(speak, line)) {
      std::fprintf(stderr, "%s step %s\n", line.c_str(), key.c_str());
    }
  }
  if (work_ms > 0) ::usleep(static_cast<useconds_t>(work_ms) * 1000);
  std::ifstream in(src, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  std::ofstream out(dst, std::ios::binary);
  out << text.str() << "level " << level << " index " << index << "\n";
}

int lines(const char* src) {
  std::ifstream in(src, std::ios::binary);
  int n = 0;
  for (std::string line; std::getline(in, line);) ++n;
  return n;
}
