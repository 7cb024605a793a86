#include "runtime/base/random_token.h"

#include <sys/random.h>

#include <cerrno>
#include <vector>

#include "runtime/base/hashing.h"

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
  return ToHex(std::string_view(reinterpret_cast<const char*>(random.data()),
                                random.size()));
}

}  // namespace gs
