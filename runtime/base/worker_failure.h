// What a worker leaves in its result file when the user's function threw:
// a marker line, then the exception's what() on one line. The adapter reads
// it after exit code 1 (kWorkerFunctionFailed) and reports
// "OP threw: WHAT" instead of a bare exit code. A worker that writes no
// such file (one built before this, or a function that called exit(1))
// is still reported by its exit code.
#ifndef GSRT_RUNTIME_BASE_WORKER_FAILURE_H_
#define GSRT_RUNTIME_BASE_WORKER_FAILURE_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace gs {

// Longest message kept: one line of a summary, not a stack dump.
constexpr size_t kMaxThrownMessageBytes = 300;

// `text` on one line: control characters (newlines included) become
// spaces, runs of them one space, and past `max_bytes` it is cut (at a
// UTF-8 character boundary) and ends with "...".
std::string OneLine(std::string_view text, size_t max_bytes);

// The result file's content for a function that threw `what`.
std::string EncodeThrown(std::string_view what);

// The message of a result file written by EncodeThrown; nullopt for
// anything else (a normal result file, an empty or foreign one).
std::optional<std::string> DecodeThrown(std::string_view file);

// How a failed MPI job's message begins when its runner said that a node
// or its daemon there was lost (runtime/worker/run_binary.h): the engine
// charges such a failure to the infrastructure, not to the application
// (runtime/engine/outcome_plan.h).
inline constexpr std::string_view kMpiNodeLost = "MPI job lost a node";

// "OP threw: WHAT", the job's error.
std::string ThrownError(std::string_view operation, std::string_view what);

}  // namespace gs

#endif  // GSRT_RUNTIME_BASE_WORKER_FAILURE_H_
