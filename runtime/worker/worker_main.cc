#include "runtime/worker/worker_main.h"

#include <cstring>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "runtime/base/file_io.h"
#include "runtime/base/serve_protocol.h"
#include "runtime/base/worker_failure.h"
#include "runtime/worker/die_with_parent.h"
#include "runtime/worker/persistent_loop.h"
#include "runtime/worker/worker_args.h"

#ifndef GSRT_VERSION
#error "GSRT_VERSION must be defined by the build"
#endif

namespace gs {

namespace {

void PrintUsage(std::ostream& os, const std::string& name) {
  os << "usage: " << name << "-worker run OP RESULT_PATH ARG...\n"
     << "       " << name << "-worker serve PARENT_PID\n"
     << "       " << name << "-worker fork-server PARENT_PID\n"
     << "       " << name << "-worker --list | --version | --help\n"
     << "\n"
     << "Runs operation OP of interface '" << name << "' once, with one ARG\n"
     << "per IDL parameter (File: path; in string: raw text; in/inout\n"
     << "scalar: encoded value; out scalar: empty placeholder), and writes\n"
     << "the return value and out/inout scalars to RESULT_PATH, one per\n"
     << "line. Exit codes: 0 done, 1 the function threw (its message is\n"
     << "then in RESULT_PATH), 2 bad call, 3 RESULT_PATH not written.\n"
     << "\n"
     << "serve runs job after job read from stdin, a socket of the local\n"
     << "adapter (runtime.workers: persistent), until EOF or PARENT_PID\n"
     << "exits (0: whatever its parent, a host's launcher, is).\n"
     << "fork-server reads the same requests and runs each job in a\n"
     << "process forked for it (runtime.workers: fork).\n";
}

const gs_worker_entry* FindEntry(const gs_worker_entry* entries, int n,
                                 const char* op) {
  for (int i = 0; i < n; ++i) {
    if (std::strcmp(entries[i].op->name, op) == 0) return &entries[i];
  }
  return nullptr;
}

class Worker {
 public:
  Worker(const char* name, const gs_worker_entry* entries, int n,
         std::ostream& out, std::ostream& err)
      : name_(name), entries_(entries), n_(n), out_(out), err_(err) {}

  int Main(int argc, const char* const* argv) {
    if (argc < 2) return Usage("no command");
    std::string cmd = argv[1];
    if (cmd == "--help" || cmd == "-h") {
      PrintUsage(out_, name_);
      return kWorkerOk;
    }
    if (cmd == "--version") {
      out_ << "gsrt-worker " << name_ << " " << GSRT_VERSION << "\n";
      return kWorkerOk;
    }
    if (cmd == "--list") {
      for (int i = 0; i < n_; ++i) {
        out_ << OperationSignature(*entries_[i].op) << "\n";
      }
      return kWorkerOk;
    }
    if (cmd == kServeCommand || cmd == kForkServerCommand) {
      return ServeJobs(argc, argv, name_.c_str(), entries_, n_);
    }
    if (cmd != "run") return Usage("unknown command '" + cmd + "'");
    if (argc < 4) return Usage("run needs OP and RESULT_PATH");
    return Run(argv[2], argv[3],
               std::vector<const char*>(argv + 4, argv + argc));
  }

 private:
  int Usage(const std::string& message) {
    err_ << "gsrt-worker " << name_ << ": " << message << "\n";
    PrintUsage(err_, name_);
    return kWorkerBadCall;
  }

  int Fail(int code, const std::string& message) {
    err_ << "gsrt-worker " << name_ << ": " << message << "\n";
    return code;
  }

  int Run(const char* op_name, const std::string& result_path,
          const std::vector<const char*>& values) {
    const gs_worker_entry* entry = FindEntry(entries_, n_, op_name);
    if (!entry) {
      std::string known;
      for (int i = 0; i < n_; ++i) {
        known += (i > 0 ? ", " : "") + std::string(entries_[i].op->name);
      }
      return Fail(kWorkerBadCall, "unknown operation '" + std::string(op_name) +
                                      "'; this worker runs: " + known);
    }
    if (result_path.empty()) return Fail(kWorkerBadCall, "empty RESULT_PATH");
    const gs_operation& op = *entry->op;
    DecodedCall call;
    Status decoded = DecodeCall(op, values, &call);
    if (!decoded.ok()) return Fail(kWorkerBadCall, decoded.message());
    // The user's code is outside our control: an exception must become a
    // failed job with its message, not std::terminate.
    try {
      entry->call(call.args.data(), call.result.bytes);
    } catch (const std::exception& e) {
      return Threw(op, result_path, e.what());
    } catch (...) {
      return Threw(op, result_path,
                   "an exception not derived from std::exception");
    }
    // No fsync: the agent reads it on this machine once the worker exits,
    // and a crash of the machine loses the job anyway; a flush (~7 ms on
    // the project's ext4) would cost more than the rest of the job.
    // A string result left NULL or too long fails the job like a throw:
    // the function broke its contract, the call itself was fine.
    StatusOr<std::string> results = EncodeResults(op, call);
    if (!results.ok()) {
      return Threw(op, result_path, results.status().message().c_str());
    }
    Status written = WriteFileAtomically(result_path, *results,
                                         {.mode = 0666, .sync = false});
    if (!written.ok()) {
      return Fail(kWorkerResultFailed,
                  "operation '" + std::string(op.name) +
                      "' finished but its result file was not written: " +
                      written.message());
    }
    return kWorkerOk;
  }

  // The message goes to stderr (kept with the job's logs) and to the
  // result file, where the adapter reads it for the run's messages.
  int Threw(const gs_operation& op, const std::string& result_path,
            const char* what) {
    const std::string message =
        "operation '" + std::string(op.name) + "' failed: " + what;
    Status written = WriteFileAtomically(result_path, EncodeThrown(what),
                                         {.mode = 0666, .sync = false});
    if (!written.ok()) {
      Fail(kWorkerFunctionFailed,
           "its message was not written to the result file: " +
               written.message());
    }
    return Fail(kWorkerFunctionFailed, message);
  }

  std::string name_;
  const gs_worker_entry* entries_;
  int n_;
  std::ostream& out_;
  std::ostream& err_;
};

}  // namespace

int RunWorker(int argc, const char* const* argv, const char* interface_name,
              const gs_worker_entry* entries, int num_entries,
              std::ostream& out, std::ostream& err) {
  return Worker(interface_name, entries, num_entries, out, err)
      .Main(argc, argv);
}

}  // namespace gs

extern "C" int gs_worker_main(int argc, char** argv, const char* interface_name,
                              const gs_worker_entry* entries, int num_entries) {
  // Killed with its master (or agent) rather than left writing files.
  if (!gs::DieWithParent()) return 1;
  int code = gs::RunWorker(argc, argv, interface_name, entries, num_entries,
                           std::cout, std::cerr);
  std::cout.flush();
  return code;
}
