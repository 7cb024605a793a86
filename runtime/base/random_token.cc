#include "runtime/base/random_token.h"

#include <sys/random.h>

#include <cerrno>
#include <vector>

namespace gs {

StatusOr<std::string> NewRandomToken(size_t bytes) {
  std::vector<unsigned char> random(bytes);
  size_t got = 0;
  while (got < bytes) {
    const ssize_t n = ::getrandom(random.data() + got, bytes - got, 0);
    if (n < 0) {
      if (errno == EINTR) continue;
      return Status::FromErrno("getrandom", errno);
    }
    got += static_cast<size_t>(n);
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string token;
  token.reserve(2 * bytes);
  for (unsigned char b : random) {
    token += kHex[b >> 4];
    token += kHex[b & 15];
  }
  return token;
}

}  // namespace gs
