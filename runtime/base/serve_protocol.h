// The lean protocol between the local adapter and a persistent worker
// (`NAME-worker serve`) or a fork server (`NAME-worker fork-server`), over
// one Unix stream socket that is the worker's stdin and stdout. Both ends
// run on the same machine, so integers travel in host byte order.
//   request: u32 payload length, then NUL-terminated fields:
//            cwd, the number of environment entries (decimal), that many
//            "NAME=value" entries, then the worker's arguments from "run"
//            on (run OP RESULT_PATH ARG...), exactly as process mode's argv.
//   reply:   kServeReplyBytes: ServeReply below, its fields in order.
// A worker that dies mid-job closes the socket; the adapter then reads the
// exit status from waitpid instead of a reply.
#ifndef GSRT_RUNTIME_BASE_SERVE_PROTOCOL_H_
#define GSRT_RUNTIME_BASE_SERVE_PROTOCOL_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/base/status.h"

namespace gs {

// Requests larger than this are refused by both ends (a job's arguments
// are paths and encoded scalars; anything near it is a bug).
constexpr uint32_t kMaxServeRequestBytes = 64u << 20;
constexpr size_t kServeHeaderBytes = 4;

// The worker's commands that read requests: job after job in the worker
// itself, or each job in a process forked for it.
constexpr char kServeCommand[] = "serve";
constexpr char kForkServerCommand[] = "fork-server";

struct ServeRequest {
  std::string cwd;
  // "NAME=value", set for this job only.
  std::vector<std::string> env;
  // From "run" on: run OP RESULT_PATH ARG...
  std::vector<std::string> args;
};

struct ServeReply {
  // `serve`: the exit code; `fork-server`: the child's wait status.
  int32_t code = 0;
  // Totals of the worker process (a fork server: of its children) so far,
  // not of the job alone.
  int64_t user_us = 0;
  int64_t system_us = 0;
  int64_t max_rss_kb = 0;
  // The job's sandbox (the request's cwd) as the worker left it, so that
  // the adapter need not look: sizes of the result file the job wrote
  // (-1: none; the worker sets the old one's time to 0 first, as
  // MarkStale does, and counts only a file written since), of stdout and of
  // stderr, and how many regular files it holds besides those three (-1:
  // something else too, a directory or a link, or it could not be read).
  int64_t result_bytes = -1;
  int64_t stdout_bytes = 0;
  int64_t stderr_bytes = 0;
  int32_t other_files = -1;
};
constexpr size_t kServeReplyBytes = 4 + 6 * 8 + 4;

// The whole frame, header included. Fails when a field holds a NUL byte
// or the frame would exceed kMaxServeRequestBytes.
StatusOr<std::string> EncodeServeRequest(const ServeRequest& request);

// The payload length in a header of kServeHeaderBytes; InvalidArgument
// above kMaxServeRequestBytes.
StatusOr<uint32_t> DecodeServeHeader(const char* header);

// Parses the payload after the header; fails naming what is malformed.
Status DecodeServeRequest(std::string_view payload, ServeRequest* request);

void EncodeServeReply(const ServeReply& reply, char* out);
ServeReply DecodeServeReply(const char* in);

}  // namespace gs

#endif  // GSRT_RUNTIME_BASE_SERVE_PROTOCOL_H_
