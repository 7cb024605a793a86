#include "runtime/master/worker_identity.h"

#include <cstdio>

#include "runtime/base/file_system.h"
#include "runtime/base/hashing.h"

namespace gs {

StatusOr<std::string> WorkerIdentity(const std::string& worker_path) {
  ContentHash hash;
  Status s = RealFileSystem().Read(
      worker_path, [&](std::string_view chunk) { hash.Update(chunk); });
  if (!s.ok()) return s;
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx",
                static_cast<unsigned long long>(hash.Digest()));
  return "w:" + std::string(hex) + ":" + std::to_string(hash.size());
}

}  // namespace gs
