// The identity of one operation's code in a worker binary: a hash of every
// function and datum its function can reach, so that a worker rebuilt with
// one function changed reruns only that operation's tasks.
//
// Read from an x86-64 ELF worker linked with --emit-relocs (and compiled
// with -ffunction-sections: gsrt_add_application does both). From the
// function, its `tramp_<op>` and the static initializers, the closure
// follows every kept relocation and every PC-relative word that lands on a
// function's first byte; each piece is hashed with relocated fields
// replaced by what they name, so code that only moved keeps its identity.
// Shared libraries' functions are named, not hashed. docs/reuse.md, "The
// function's code", says what is followed and what is not.
#ifndef GSRT_RUNTIME_MASTER_FUNCTION_IDENTITY_H_
#define GSRT_RUNTIME_MASTER_FUNCTION_IDENTITY_H_

#include <memory>
#include <string>
#include <string_view>

#include "runtime/base/status.h"

namespace gs {

class FunctionIdentities {
 public:
  // Reads `image`, a worker's bytes. kFailedPrecondition when it cannot
  // say what a function reaches: not x86-64, stripped, or linked without
  // --emit-relocs (the message says which); kInvalidArgument when it is
  // not a readable ELF file.
  static StatusOr<std::unique_ptr<FunctionIdentities>> Read(std::string image);
  ~FunctionIdentities();

  // "f:<32 hex digits>" for the code reachable from `function`;
  // kNotFound when the worker defines no function of that name. Not
  // thread-safe; the same answer each call.
  StatusOr<std::string> Of(std::string_view function);

  // How many pieces (functions, objects, anonymous data) the last Of
  // hashed: for tests and the docs' figures.
  size_t last_pieces() const;

  struct Impl;  // the image's tables (function_identity.cc)

 private:
  explicit FunctionIdentities(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace gs

#endif  // GSRT_RUNTIME_MASTER_FUNCTION_IDENTITY_H_
