// SHA-256 of local data, to check uploads against the remote `sha256sum`.
#ifndef GSRT_RUNTIME_BASE_SHA256_H_
#define GSRT_RUNTIME_BASE_SHA256_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "runtime/base/status.h"

namespace gs {

// Incremental SHA-256; Hex() gives 64 lower-case hex digits (as sha256sum).
class Sha256 {
 public:
  Sha256();
  ~Sha256();
  void Update(std::string_view bytes);
  std::string Hex();  // finishes; call once

 private:
  struct Ctx;
  std::unique_ptr<Ctx> ctx_;
};

struct FileDigest {
  uint64_t size = 0;
  std::string sha256;
};

// Size and SHA-256 of a local file.
StatusOr<FileDigest> DigestFile(const std::string& path);

}  // namespace gs

#endif  // GSRT_RUNTIME_BASE_SHA256_H_
