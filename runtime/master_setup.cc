#include "runtime/master_setup.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <thread>

#include "adapters/local/local_adapter.h"

namespace gs {

namespace fs = std::filesystem;

StatusOr<std::string> FindWorker() {
  if (const char* env = std::getenv("GSRT_WORKER"); env && *env) {
    std::string path = fs::absolute(env).string();
    if (::access(path.c_str(), X_OK) != 0) {
      return Status::NotFound("GSRT_WORKER names " + path +
                              ", which is not an executable file");
    }
    return path;
  }
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) {
    return Status::NotFound(
        "cannot find the running executable to locate its worker; set "
        "GSRT_WORKER to the worker's path");
  }
  std::string path = self.string() + "-worker";
  if (::access(path.c_str(), X_OK) != 0) {
    return Status::NotFound(
        "worker program not found: " + path + ". Build the '" +
        self.filename().string() + "-worker' target (gsrt_add_application "
        "makes it next to the master), or set GSRT_WORKER to its path");
  }
  return path;
}

StatusOr<std::unique_ptr<Engine>> StartMasterEngine() {
  auto worker = FindWorker();
  if (!worker.ok()) return worker.status();
  EngineOptions options;
  options.cwd = fs::current_path().string();
  options.work_dir = options.cwd + "/.gsrt";
  options.history_path = options.work_dir + "/history.db";
  std::error_code ec;
  options.program = fs::read_symlink("/proc/self/exe", ec).string();
  if (const char* dot = std::getenv("GSRT_DOT"); dot && *dot) {
    options.dot_path = fs::absolute(dot).string();
  }
  options.progress = ::isatty(STDERR_FILENO) == 1;
  auto engine = std::make_unique<Engine>(options);
  std::vector<HostSetup> hosts;
  LocalAdapterOptions local;
  local.slots = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  local.work_dir = options.work_dir;
  local.host_name = "local";
  hosts.push_back(HostSetup{
      "local",
      [local](boost::asio::io_context& io, Clock& clock) -> std::unique_ptr<Adapter> {
        return std::make_unique<LocalAdapter>(io, clock, local);
      },
      *worker});
  Status s = engine->Start(std::move(hosts));
  if (!s.ok()) return s;
  return engine;
}

}  // namespace gs
