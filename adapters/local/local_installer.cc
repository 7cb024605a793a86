#include "adapters/local/local_installer.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <vector>

#include "runtime/base/file_io.h"
#include "runtime/base/process_spawn.h"

namespace gs {

namespace fs = std::filesystem;

namespace {

// True when both files exist with the same bytes.
bool SameContents(const std::string& a, const std::string& b) {
  std::error_code ec;
  if (fs::file_size(a, ec) != fs::file_size(b, ec) || ec) return false;
  std::ifstream x(a, std::ios::binary), y(b, std::ios::binary);
  char bx[1 << 16], by[1 << 16];
  while (x && y) {
    x.read(bx, sizeof bx);
    y.read(by, sizeof by);
    if (x.gcount() != y.gcount() || !std::equal(bx, bx + x.gcount(), by)) {
      return false;
    }
  }
  return x.eof() && y.eof();
}

class LocalInstaller : public HostInstaller {
 public:
  explicit LocalInstaller(Seconds timeout) : timeout_(timeout) {}

  StatusOr<ProgramCheck> Install(const std::string& local,
                                 const std::string& host_path) override {
    if (::access(local.c_str(), R_OK) != 0) {
      return Status::FromErrno("cannot read " + local + " on the master",
                               errno);
    }
    bool uploaded = false;
    if (!SameContents(local, host_path)) {
      std::error_code ec;
      fs::create_directories(fs::path(host_path).parent_path(), ec);
      Status copied = CopyFileAtomically(local, host_path, {.mode = 0755});
      if (!copied.ok()) {
        return copied.WithContext("cannot copy " + local + " to " + host_path);
      }
      uploaded = true;
    }
    StatusOr<ProgramCheck> check = Check(host_path);
    if (!check.ok()) return check;
    check->uploaded = uploaded;
    return check;
  }

  StatusOr<ProgramCheck> Check(const std::string& host_path) override {
    struct stat st;
    if (::stat(host_path.c_str(), &st) != 0) {
      return Status::NotFound(host_path + " does not exist");
    }
    if (!S_ISREG(st.st_mode) || ::access(host_path.c_str(), X_OK) != 0) {
      return Status::PermissionDenied(host_path +
                                      " is not an executable file (chmod +x)");
    }
    const std::vector<std::string> argv = {host_path, "--version"};
    StatusOr<ProgramOutput> run = RunProgram(argv, timeout_);
    if (!run.ok()) return run.status();
    if (run->exit_code != 0) {
      return Status::FailedPrecondition(DescribeFailure(argv, *run));
    }
    ProgramCheck check;
    check.version = run->out.substr(0, run->out.find('\n'));
    return check;
  }

 private:
  Seconds timeout_;
};

}  // namespace

std::unique_ptr<HostInstaller> MakeLocalInstaller(Seconds timeout) {
  return std::make_unique<LocalInstaller>(timeout);
}

}  // namespace gs
