#include "adapters/agent/agent_args.h"

#include <CLI/CLI.hpp>
#include <map>

#include "adapters/agent/agent.h"
#include "adapters/agent/protocol.h"
#include "adapters/local/local_adapter.h"
#include "runtime/base/command_line.h"

namespace gs {

namespace {

// Options whose value must not be empty ("--workdir=").
const CLI::Validator kNotEmpty(
    [](std::string& value) {
      return value.empty() ? std::string("must not be empty") : std::string();
    },
    "", "not empty");

// Seconds >= 0 (NaN is not).
const CLI::Validator kSeconds(
    [](std::string& value) {
      double seconds = -1;
      const bool number = CLI::detail::lexical_cast(value, seconds);
      return number && seconds >= 0
                 ? std::string()
                 : "must be seconds >= 0, not '" + value + "'";
    },
    "SECONDS", "seconds");

}  // namespace

std::optional<int> ParseAgentArgs(const std::vector<std::string>& args,
                                  AgentArgs* agent, std::ostream& out,
                                  std::ostream& err) {
  CLI::App app{
      "Speaks the gsrt agent protocol (docs/agent-protocol.md) for one "
      "master, on stdin/stdout, over TCP as a pilot job, or runs one batch "
      "job; started by the master, not by hand.",
      "gsrt-agent"};
  SetUsage(app,
           "usage: gsrt-agent --workdir DIR [--slots N] [--heartbeat SECONDS]\n"
           "                  [--workers process|persistent|fork]\n"
           "                  [--launcher=WORD ...] [--detect-gpus]\n"
           "       gsrt-agent --connect HOST:PORT --token-file FILE --pilot "
           "NAME\n"
           "                  --workdir DIR [--slots N] [--heartbeat "
           "SECONDS]\n"
           "                  [--reattach SECONDS]\n"
           "       gsrt-agent --batch-job DIR --workdir DIR\n"
           "       gsrt-agent --version\n");
  app.footer(
      "Exit codes: 0 after SHUTDOWN or an orderly end of input; 1 "
      "after an error; 2 bad arguments.");
  app.set_version_flag("--version",
                       std::string("gsrt-agent ") + AgentSoftwareVersion() +
                           " protocol " + std::to_string(agent::kProtocolMajor),
                       "print the version and the protocol's and exit");
  agent->slots = LocalAdapterOptions::DefaultSlots();
  app.add_option("--workdir", agent->work_dir,
                 "job sandboxes, kept logs and staged files (created when "
                 "missing)")
      ->type_name("DIR")
      ->required()
      ->check(kNotEmpty);
  CLI::Option* slots =
      app.add_option("--slots", agent->slots,
                     "jobs run at once (default: the hardware threads; a "
                     "pilot: the CPUs of its batch allocation)")
          ->type_name("N")
          ->check(CLI::Range(1, 100000));
  app.add_option("--heartbeat", agent->heartbeat,
                 "the master's promised silence bound; 3 times it without a "
                 "message ends the agent (default 0: never)")
      ->check(kSeconds);
  app.add_option("--workers", agent->workers,
                 "one worker process per job, persistent workers that run "
                 "job after job, or a fork server that forks a fresh worker "
                 "per job (default: process)")
      ->type_name("process|persistent|fork")
      ->transform(CLI::CheckedTransformer(
          std::map<std::string, WorkerMode>{
              {"process", WorkerMode::kProcess},
              {"persistent", WorkerMode::kPersistent},
              {"fork", WorkerMode::kFork}},
          CLI::ignore_case));
  CLI::Option* connect =
      app.add_option("--connect", agent->connect,
                     "a pilot: connect to the master at HOST:PORT")
          ->type_name("HOST:PORT")
          ->check(kNotEmpty);
  CLI::Option* token =
      app.add_option("--token-file", agent->token_file,
                     "the pilot's token, a file of mode 0600, or - for "
                     "$GSRT_PILOT_TOKEN")
          ->type_name("FILE")
          ->check(kNotEmpty);
  CLI::Option* pilot =
      app.add_option("--pilot", agent->pilot, "the pilot's name")
          ->type_name("NAME")
          ->check(kNotEmpty);
  CLI::Option* reattach =
      app.add_option("--reattach", agent->reattach,
                     "a pilot whose master is lost keeps its jobs and their "
                     "results and waits this long for the next master, whose "
                     "address and token it reads from the token file "
                     "(default 0: it ends with its master)")
          ->check(kSeconds);
  connect->needs(token)->needs(pilot);
  reattach->needs(connect);
  app.add_option("--launcher", agent->launcher,
                 "a word of the host's launcher, the command put before "
                 "every worker (repeat it, one word each, written "
                 "--launcher=WORD so that a word may start with '-')")
      ->type_name("WORD")
      ->allow_extra_args(false)
      ->take_all();
  app.add_flag("--detect-gpus", agent->detect_gpus,
               "hand jobs that ask for GPUs the devices this machine shows "
               "(CUDA_VISIBLE_DEVICES, else SLURM_STEP_GPUS or "
               "SLURM_JOB_GPUS, else /dev/nvidiaN) and tell the master how "
               "many (a pilot always does)");
  app.add_option("--batch-job", agent->batch_job,
                 "run the job of batch directory DIR and exit")
      ->type_name("DIR")
      ->check(kNotEmpty);
  std::optional<int> exit = ParseCommandLine(app, args, out, err);
  agent->slots_given = slots->count() > 0;
  return exit;
}

}  // namespace gs
