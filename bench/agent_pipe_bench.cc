// Benchmark: no-op jobs through an AgentAdapter over a PipeStream to a
// local gsrt-agent (which runs them with its embedded local adapter),
// against the LocalAdapter used directly, same worker, same slots, same
// process. The ratio is the cost of the agent hop (frames, one more
// process, the pipe) on job throughput. The agent is measured twice: with
// jobs sent only to free slots, and with `slots` more jobs queued on the
// agent (prefetch, as the engine does for ssh hosts).
//
//   agent_pipe_bench [jobs (default 2000)] [rounds (default 2)]
//                    [process|persistent (workers; default process)]
#include <unistd.h>

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>
#include <thread>

#include "adapters/agent/local_agent.h"
#include "adapters/local/local_adapter.h"
#include "bench_clock.h"
#include "runtime/base/asio_clock.h"

namespace {

namespace fs = std::filesystem;

// Runs `jobs` no-op jobs keeping the adapter's slots full, and at least
// `outstanding` jobs sent and not finished (the slots' plus those queued on
// the agent); returns jobs/s.
double Rate(boost::asio::io_context& io, gs::Adapter& adapter,
            const std::string& worker, int jobs, int outstanding,
            int* failures) {
  int submitted = 0, finished = 0;
  std::function<void()> fill = [&] {
    while (submitted < jobs &&
           (adapter.FreeSlots() > 0 || submitted - finished < outstanding)) {
      gs::JobSpec spec;
      spec.id = static_cast<gs::JobId>(++submitted);
      spec.operation = "noop";
      spec.worker = worker;
      gs::JobParam p;
      p.kind = gs::JobParam::Kind::kScalar;
      p.value = std::to_string(submitted);
      spec.params.push_back(p);
      adapter.Submit(std::move(spec), [&](gs::JobReport r) {
        const auto* e = std::get_if<gs::Exited>(&r.outcome);
        if (e == nullptr || !e->succeeded()) ++*failures;
        ++finished;
        fill();
      });
    }
  };
  const double t0 = Now();
  fill();
  while (finished < jobs) {
    io.restart();
    io.run_one();
  }
  return jobs / (Now() - t0);
}

}  // namespace

int main(int argc, char** argv) {
  const int jobs = argc > 1 ? std::atoi(argv[1]) : 2000;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 2;
  const std::string mode = argc > 3 ? argv[3] : "process";
  if (jobs < 1 || rounds < 1 || (mode != "process" && mode != "persistent")) {
    std::fprintf(stderr,
                 "usage: %s [jobs >= 1] [rounds >= 1] [process|persistent]\n",
                 argv[0]);
    return 2;
  }
  const gs::WorkerMode workers = mode == "persistent"
                                     ? gs::WorkerMode::kPersistent
                                     : gs::WorkerMode::kProcess;
  const std::string worker =
      fs::read_symlink("/proc/self/exe").string() + "-worker";
  const int slots =
      static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const fs::path dir = fs::temp_directory_path() /
                       ("gsrt-agent-bench-" + std::to_string(::getpid()));
  fs::create_directories(dir);

  boost::asio::io_context io(1);
  gs::AsioClock clock(io);
  gs::LocalAdapterOptions local_options;
  local_options.slots = slots;
  local_options.work_dir = (dir / "local").string();
  local_options.workers = workers;
  gs::LocalAdapter local(io, clock, local_options);
  if (gs::Status s = local.Connect(); !s.ok()) {
    std::fprintf(stderr, "local adapter: %s\n", s.ToString().c_str());
    return 1;
  }
  gs::LocalAgentOptions agent_options;
  agent_options.program = GSRT_AGENT;
  agent_options.work_dir = (dir / "agent").string();
  agent_options.slots = slots;
  agent_options.workers = workers;
  auto agent = gs::MakeLocalAgentAdapter(io, clock, agent_options);
  const double c0 = Now();
  if (gs::Status s = agent->Connect(); !s.ok()) {
    std::fprintf(stderr, "agent adapter: %s\n", s.ToString().c_str());
    return 1;
  }
  std::printf("agent start + handshake: %.1f ms\n", (Now() - c0) * 1e3);

  double best_local = 0, best_agent = 0, best_prefetch = 0;
  int failures = 0;
  for (int r = 0; r < rounds; ++r) {
    const double l = Rate(io, local, worker, jobs, 0, &failures);
    const double a = Rate(io, *agent, worker, jobs, 0, &failures);
    const double p = Rate(io, *agent, worker, jobs, 2 * slots, &failures);
    std::printf(
        "round %d: local %.0f jobs/s, agent over pipe %.0f jobs/s (ratio "
        "%.2f), with prefetch %d: %.0f jobs/s (ratio %.2f)\n",
        r + 1, l, a, a / l, slots, p, p / l);
    best_local = std::max(best_local, l);
    best_agent = std::max(best_agent, a);
    best_prefetch = std::max(best_prefetch, p);
  }
  agent->Shutdown();
  local.Shutdown();
  std::printf(
      "agent_pipe_bench: %d no-op jobs, %d slots, %s workers: local %.0f "
      "jobs/s, "
      "agent %.0f jobs/s, ratio agent/local %.2f; with prefetch %d: %.0f "
      "jobs/s, ratio %.2f%s\n",
      jobs, slots, mode.c_str(), best_local, best_agent,
      best_agent / best_local, slots, best_prefetch, best_prefetch / best_local,
      failures ? " (SOME JOBS FAILED)" : "");
  fs::remove_all(dir);
  return failures ? 1 : 0;
}
