// What a run knows of the code its jobs execute (computed by the master:
// runtime/master/worker_identity.h and function_identity.h).
#ifndef GSRT_RUNTIME_ENGINE_CODE_IDENTITY_H_
#define GSRT_RUNTIME_ENGINE_CODE_IDENTITY_H_

#include <functional>
#include <string>

namespace gs {

struct CodeIdentity {
  // The whole worker's identity ("" = unknown): journaled with every task;
  // a resumed run reuses only tasks journaled with the same one.
  std::string worker;
  // The identity of one operation's code, for results that last across
  // runs; "" (or unset) where it cannot be read, and `worker` stands in.
  // Called on the engine thread only.
  std::function<std::string(const std::string& operation)> of_operation;

  std::string Of(const std::string& operation) const {
    std::string id = of_operation ? of_operation(operation) : std::string();
    return id.empty() ? worker : id;
  }
};

}  // namespace gs

#endif  // GSRT_RUNTIME_ENGINE_CODE_IDENTITY_H_
