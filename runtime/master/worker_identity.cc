#include "runtime/master/worker_identity.h"

#include <cstdio>

#include "runtime/base/file_system.h"
#include "runtime/base/hashing.h"
#include "runtime/base/process_spawn.h"

namespace gs {

namespace {

bool IsSystemLibrary(std::string_view path) {
  for (std::string_view dir :
       {"/lib/", "/lib64/", "/usr/lib/", "/usr/lib64/"}) {
    if (path.substr(0, dir.size()) == dir) return true;
  }
  return false;
}

std::string_view BaseName(std::string_view path) {
  size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

}  // namespace

std::vector<std::string> ApplicationLibraries(std::string_view ldd_listing) {
  // Lines look like "\tlibfoo.so.1 => /path/libfoo.so.1 (0x7f...)"; the
  // loader and the vDSO have no "=>", a missing library says "not found".
  std::vector<std::string> libraries;
  while (!ldd_listing.empty()) {
    size_t eol = ldd_listing.find('\n');
    std::string_view line = ldd_listing.substr(0, eol);
    ldd_listing.remove_prefix(eol == std::string_view::npos ? ldd_listing.size()
                                                            : eol + 1);
    size_t arrow = line.find(" => ");
    if (arrow == std::string_view::npos) continue;
    std::string_view path = line.substr(arrow + 4);
    path = path.substr(0, path.rfind(" ("));
    if (path.empty() || path[0] != '/') continue;  // "not found"
    if (IsSystemLibrary(path)) continue;
    if (BaseName(path).substr(0, 7) == "libgsrt") continue;
    libraries.emplace_back(path);
  }
  return libraries;
}

StatusOr<std::string> WorkerIdentity(const std::string& worker_path) {
  ContentHash hash;
  auto add = [&](const std::string& path) {
    return RealFileSystem().Read(
        path, [&](std::string_view chunk) { hash.Update(chunk); });
  };
  if (Status s = add(worker_path); !s.ok()) return s;
  // ldd (glibc's, in libc-bin) lists what the loader would load, with the
  // master's environment (LD_LIBRARY_PATH included), as the jobs get it.
  const std::string ldd = FindInPath("ldd");
  if (!ldd.empty()) {
    auto listing = RunProgram({ldd, worker_path}, 30);
    if (listing.ok() && listing->exit_code == 0) {
      for (const std::string& library : ApplicationLibraries(listing->out)) {
        hash.Update(library.substr(library.rfind('/') + 1));
        if (Status s = add(library); !s.ok()) return s;
      }
    }
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx",
                static_cast<unsigned long long>(hash.Digest()));
  return "w:" + std::string(hex) + ":" + std::to_string(hash.size());
}

}  // namespace gs
