#include "runtime/base/status.h"

#include <cstring>

namespace gs {

namespace {
const char* CodeName(Status::Code code) {
  switch (code) {
    case Status::Code::kOk:
      return "OK";
    case Status::Code::kInvalidArgument:
      return "invalid argument";
    case Status::Code::kNotFound:
      return "not found";
    case Status::Code::kIoError:
      return "I/O error";
    case Status::Code::kUnavailable:
      return "unavailable";
    case Status::Code::kPermissionDenied:
      return "permission denied";
    case Status::Code::kFailedPrecondition:
      return "failed precondition";
    case Status::Code::kTimedOut:
      return "timed out";
    case Status::Code::kCancelled:
      return "cancelled";
    case Status::Code::kInternal:
      return "internal error";
  }
  return "unknown";
}
}  // namespace

Status Status::FromErrno(std::string_view what, int err) {
  std::string msg(what);
  msg += ": ";
  msg += std::strerror(err);
  return Status(Code::kIoError, msg);
}

const std::string& Status::message() const {
  static const std::string kEmpty;
  return ok() ? kEmpty : state_->message;
}

std::string Status::ToString() const {
  if (ok()) return "OK";
  return std::string(CodeName(state_->code)) + ": " + state_->message;
}

Status Status::WithContext(std::string_view context) const {
  if (ok()) return *this;
  std::string msg(context);
  msg += ": ";
  msg += state_->message;
  return Status(state_->code, msg);
}

}  // namespace gs
