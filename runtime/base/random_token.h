// Secrets that guard a listener (the pilots' greeting, the dashboard's
// token): random bytes from the kernel, as hex.
#ifndef GSRT_RUNTIME_BASE_RANDOM_TOKEN_H_
#define GSRT_RUNTIME_BASE_RANDOM_TOKEN_H_

#include <cstddef>
#include <string>

#include "runtime/base/status.h"

namespace gs {

// `bytes` random bytes (getrandom(2)) as 2 * `bytes` lower-case hex digits.
// Fails, rather than giving a guessable token, when the kernel gives none.
StatusOr<std::string> NewRandomToken(size_t bytes);

}  // namespace gs

#endif  // GSRT_RUNTIME_BASE_RANDOM_TOKEN_H_
