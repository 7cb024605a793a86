#include "runtime/base/serve_protocol.h"

#include <charconv>
#include <cstring>

namespace gs {

namespace {

bool AppendField(std::string_view field, std::string* out) {
  if (field.find('\0') != std::string_view::npos) return false;
  out->append(field);
  out->push_back('\0');
  return true;
}

// The next NUL-terminated field of `rest`, which it leaves after it.
bool NextField(std::string_view* rest, std::string_view* field) {
  const size_t end = rest->find('\0');
  if (end == std::string_view::npos) return false;
  *field = rest->substr(0, end);
  rest->remove_prefix(end + 1);
  return true;
}

}  // namespace

StatusOr<std::string> EncodeServeRequest(const ServeRequest& request) {
  std::string frame(kServeHeaderBytes, '\0');
  bool ok = AppendField(request.cwd, &frame) &&
            AppendField(std::to_string(request.env.size()), &frame);
  for (const std::string& e : request.env) {
    ok = ok && e.find('=') != std::string::npos && AppendField(e, &frame);
  }
  for (const std::string& a : request.args) ok = ok && AppendField(a, &frame);
  if (!ok) {
    return Status::InvalidArgument(
        "a job's working directory, environment entry (NAME=value) or "
        "argument holds a NUL byte or lacks '='");
  }
  const size_t payload = frame.size() - kServeHeaderBytes;
  if (payload > kMaxServeRequestBytes) {
    return Status::InvalidArgument("job request of " + std::to_string(payload) +
                                   " bytes is too large for a worker");
  }
  const uint32_t length = static_cast<uint32_t>(payload);
  std::memcpy(frame.data(), &length, sizeof length);
  return frame;
}

StatusOr<uint32_t> DecodeServeHeader(const char* header) {
  uint32_t length;
  std::memcpy(&length, header, sizeof length);
  if (length > kMaxServeRequestBytes) {
    return Status::InvalidArgument("job request of " + std::to_string(length) +
                                   " bytes announced; the limit is " +
                                   std::to_string(kMaxServeRequestBytes));
  }
  return length;
}

Status DecodeServeRequest(std::string_view payload, ServeRequest* request) {
  *request = ServeRequest();
  std::string_view field;
  if (!NextField(&payload, &field)) {
    return Status::InvalidArgument("job request without a working directory");
  }
  request->cwd = field;
  size_t count = 0;
  if (!NextField(&payload, &field) ||
      std::from_chars(field.data(), field.data() + field.size(), count).ec !=
          std::errc() ||
      count > payload.size()) {
    return Status::InvalidArgument(
        "job request without a valid environment count");
  }
  for (size_t i = 0; i < count; ++i) {
    if (!NextField(&payload, &field) ||
        field.find('=') == std::string_view::npos) {
      return Status::InvalidArgument(
          "job request with a malformed "
          "environment entry " +
          std::to_string(i));
    }
    request->env.emplace_back(field);
  }
  while (!payload.empty()) {
    if (!NextField(&payload, &field)) {
      return Status::InvalidArgument("job request ends inside an argument");
    }
    request->args.emplace_back(field);
  }
  return Status::Ok();
}

void EncodeServeReply(const ServeReply& reply, char* out) {
  std::memcpy(out, &reply.code, 4);
  std::memcpy(out + 4, &reply.user_us, 8);
  std::memcpy(out + 12, &reply.system_us, 8);
  std::memcpy(out + 20, &reply.max_rss_kb, 8);
  std::memcpy(out + 28, &reply.result_bytes, 8);
  std::memcpy(out + 36, &reply.stdout_bytes, 8);
  std::memcpy(out + 44, &reply.stderr_bytes, 8);
  std::memcpy(out + 52, &reply.other_files, 4);
}

ServeReply DecodeServeReply(const char* in) {
  ServeReply reply;
  std::memcpy(&reply.code, in, 4);
  std::memcpy(&reply.user_us, in + 4, 8);
  std::memcpy(&reply.system_us, in + 12, 8);
  std::memcpy(&reply.max_rss_kb, in + 20, 8);
  std::memcpy(&reply.result_bytes, in + 28, 8);
  std::memcpy(&reply.stdout_bytes, in + 36, 8);
  std::memcpy(&reply.stderr_bytes, in + 44, 8);
  std::memcpy(&reply.other_files, in + 52, 4);
  return reply;
}

}  // namespace gs
