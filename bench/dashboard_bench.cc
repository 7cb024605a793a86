// Benchmark: the cost of the live page with a browser connected. No-op
// tasks end to end through gsrt's local adapter without the page, and with
// GSRT_DASHBOARD and headless Chromium showing it (pushed snapshots at most
// 4 times a second), alternately in the same process.
//
//   dashboard_bench [tasks (default 3000)] [rounds (default 3)] [port]
//
// Chromium (Debian's chromium) is started once on the page's address; its
// EventSource reconnects to each run's server within half a second. Prints
// each round, the best rate of each side and the ratio on / off (goal: at
// least 0.95), and the master's CPU time per task on each side (the least
// of the rounds; the server's thread is in the master, the browser is not).
#include <gs/gs.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "noop_rate.h"

extern char** environ;

namespace {

namespace fs = std::filesystem;

double GsrtRate(int tasks) {
  double t0 = Now();
  if (GS_On() != 0) std::exit(1);
  // The browser's EventSource reconnects within 0.5 s of the server coming
  // up; give it that before the tasks (the same pause on both sides).
  std::this_thread::sleep_for(std::chrono::milliseconds(700));
  t0 += 0.7;
  for (int i = 0; i < tasks; ++i) noop(i);
  if (GS_Off(0) != 0) std::exit(1);
  return tasks / (Now() - t0);
}

pid_t StartChromium(const std::string& url, const fs::path& profile) {
  std::vector<std::string> args = {"/usr/bin/chromium",
                                   "--headless",
                                   "--no-sandbox",
                                   "--disable-gpu",
                                   "--disable-background-networking",
                                   "--disable-component-update",
                                   "--disable-sync",
                                   "--no-first-run",
                                   "--user-data-dir=" + profile.string(),
                                   "--remote-debugging-port=0",
                                   url};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);
  pid_t pid = -1;
  if (posix_spawn(&pid, argv[0], nullptr, &attr, argv.data(), environ) != 0) {
    std::fprintf(stderr,
                 "dashboard_bench: cannot start /usr/bin/chromium "
                 "(scripts/install-deps.sh installs it)\n");
    std::exit(1);
  }
  posix_spawnattr_destroy(&attr);
  return pid;
}

}  // namespace

int main(int argc, char** argv) {
  int tasks = argc > 1 ? std::atoi(argv[1]) : 3000;
  int rounds = argc > 2 ? std::atoi(argv[2]) : 3;
  int port = argc > 3 ? std::atoi(argv[3]) : 18787;
  if (tasks < 1 || rounds < 1 || port < 1 || port > 65535) {
    std::fprintf(stderr, "usage: %s [tasks >= 1] [rounds >= 1] [port]\n",
                 argv[0]);
    return 2;
  }
  fs::path dir = fs::temp_directory_path() /
                 ("gsrt-dashboard-bench-" + std::to_string(::getpid()));
  fs::create_directories(dir / "profile");
  fs::current_path(dir);
  const std::string address = "127.0.0.1:" + std::to_string(port);
  pid_t browser = StartChromium("http://" + address + "/", dir / "profile");
  OnOffBest best;
  for (int r = 0; r < rounds; ++r) {
    unsetenv("GSRT_DASHBOARD");
    const NoopSide off = MeasureSide(tasks, GsrtRate);
    setenv("GSRT_DASHBOARD", address.c_str(), 1);
    const NoopSide on = MeasureSide(tasks, GsrtRate);
    std::printf(
        "round %d: page off %.0f jobs/s, on %.0f jobs/s, ratio %.3f; master "
        "CPU %.1f / %.1f us per task\n",
        r + 1, off.rate, on.rate, on.rate / off.rate, off.cpu_us, on.cpu_us);
    best.Add(off, on);
  }
  kill(-browser, SIGTERM);
  waitpid(browser, nullptr, 0);
  std::printf(
      "dashboard_bench: %d no-op tasks: page off %.0f jobs/s, on (browser "
      "connected) %.0f jobs/s, ratio on/off %.3f (goal >= 0.95)\n",
      tasks, best.off_rate, best.on_rate, best.on_rate / best.off_rate);
  std::printf(
      "dashboard_bench: master CPU per task: off %.1f us, on %.1f us, ratio "
      "on/off %.3f (goal <= 1.05)\n",
      best.off_cpu_us, best.on_cpu_us, best.on_cpu_us / best.off_cpu_us);
  fs::current_path("/");
  fs::remove_all(dir);
  return 0;
}
