// Status: the outcome of an operation that can fail for expected reasons
// (unreachable host, malformed input, disk full). Broken invariants are
// asserts, not Statuses. Modelled on leveldb's Status: cheap when OK.
#ifndef GSRT_RUNTIME_BASE_STATUS_H_
#define GSRT_RUNTIME_BASE_STATUS_H_

#include <cassert>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace gs {

class Status {
 public:
  enum class Code : unsigned char {
    kOk = 0,
    kInvalidArgument,  // bad input: IDL, YAML, command line
    kNotFound,
    kIoError,
    kUnavailable,       // a host or service that does not answer
    kPermissionDenied,  // refused keys, wrong permissions
    kFailedPrecondition,
    kTimedOut,
    kCancelled,
    kInternal,
  };

  Status() = default;
  static Status Ok() { return Status(); }
  static Status InvalidArgument(std::string_view msg) {
    return Status(Code::kInvalidArgument, msg);
  }
  static Status NotFound(std::string_view msg) {
    return Status(Code::kNotFound, msg);
  }
  static Status IoError(std::string_view msg) {
    return Status(Code::kIoError, msg);
  }
  static Status Unavailable(std::string_view msg) {
    return Status(Code::kUnavailable, msg);
  }
  static Status PermissionDenied(std::string_view msg) {
    return Status(Code::kPermissionDenied, msg);
  }
  static Status FailedPrecondition(std::string_view msg) {
    return Status(Code::kFailedPrecondition, msg);
  }
  static Status TimedOut(std::string_view msg) {
    return Status(Code::kTimedOut, msg);
  }
  static Status Cancelled(std::string_view msg) {
    return Status(Code::kCancelled, msg);
  }
  static Status Internal(std::string_view msg) {
    return Status(Code::kInternal, msg);
  }
  // An I/O error from errno, naming what was being done ("open foo.txt").
  static Status FromErrno(std::string_view what, int err);

  bool ok() const { return state_ == nullptr; }
  Code code() const { return ok() ? Code::kOk : state_->code; }
  const std::string& message() const;
  std::string ToString() const;

  // Returns a copy whose message starts with `context: `.
  Status WithContext(std::string_view context) const;

 private:
  struct State {
    Code code;
    std::string message;
  };
  Status(Code code, std::string_view msg)
      : state_(std::make_shared<const State>(State{code, std::string(msg)})) {}
  std::shared_ptr<const State> state_;  // null means OK
};

// A value or the Status saying why there is none.
template <typename T>
class StatusOr {
 public:
  StatusOr(T value) : value_(std::move(value)) {}         // NOLINT: implicit
  StatusOr(Status status) : status_(std::move(status)) {  // NOLINT: implicit
    assert(!status_.ok());
  }
  bool ok() const { return status_.ok(); }
  const Status& status() const { return status_; }
  T& value() & {
    assert(ok());
    return *value_;
  }
  const T& value() const& {
    assert(ok());
    return *value_;
  }
  T&& value() && {
    assert(ok());
    return std::move(*value_);
  }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() { return value(); }

 private:
  Status status_;
  std::optional<T> value_;
};

}  // namespace gs

#endif  // GSRT_RUNTIME_BASE_STATUS_H_
