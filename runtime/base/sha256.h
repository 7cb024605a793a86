// SHA-256: what hosts compute with `sha256sum`. gsdeploy and the ssh
// installer compare installed programs with it, and task signatures in the
// journal use it. OpenSSL's: the code is a library of its own
// (gsrt_sha256_objs, in libgsrt), so that the programs that run on hosts
// (gsrt-agent) need no libcrypto. The other hash and the reading of files
// are in hashing.h.
#ifndef GSRT_RUNTIME_BASE_SHA256_H_
#define GSRT_RUNTIME_BASE_SHA256_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "runtime/base/hashing.h"
#include "runtime/base/status.h"

namespace gs {

class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;

  void Update(std::string_view bytes);
  // 64 lower-case hex digits, as sha256sum prints. Finishes: call once.
  std::string Hex();

  // Bytes given so far.
  uint64_t size() const { return total_; }

  static std::string HexOf(std::string_view bytes);

 private:
  struct Ctx;
  std::unique_ptr<Ctx> ctx_;
  uint64_t total_ = 0;
};

// HashFile (hashing.h) for SHA-256.
Status HashFile(const std::string& path, Sha256* hash);

}  // namespace gs

#endif  // GSRT_RUNTIME_BASE_SHA256_H_
