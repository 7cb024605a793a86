#include "runtime/master/worker_identity.h"

#include <unistd.h>

#include <cstdio>
#include <memory>

#include "runtime/base/file_system.h"
#include "runtime/base/hashing.h"
#include "runtime/base/mutex.h"
#include "runtime/base/process_spawn.h"
#include "runtime/base/sha256.h"
#include "runtime/master/function_identity.h"

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

namespace {

std::string Hex16(uint64_t digest) {
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx",
                static_cast<unsigned long long>(digest));
  return hex;
}

// ldd (glibc's, in libc-bin) lists what the loader would load, with the
// master's environment (LD_LIBRARY_PATH included), as the jobs get it.
std::vector<std::string> LibrariesOf(const std::string& worker_path) {
  const std::string ldd = FindInPath("ldd");
  if (ldd.empty()) return {};
  auto listing = RunProgram({ldd, worker_path}, 30);
  if (!listing.ok() || listing->exit_code != 0) return {};
  return ApplicationLibraries(listing->out);
}

// Adds the application libraries' names and bytes to `hash`.
Status HashLibraries(const std::vector<std::string>& libraries,
                     ContentHash* hash) {
  for (const std::string& library : libraries) {
    hash->Update(library.substr(library.rfind('/') + 1));
    Status s = RealFileSystem().Read(
        library, [&](std::string_view chunk) { hash->Update(chunk); });
    if (!s.ok()) return s;
  }
  return Status::Ok();
}

// What each operation's identity is made of, read at the first need.
struct FunctionCode {
  Mutex mu;
  std::string image GUARDED_BY(mu);  // the worker's bytes, until read
  std::string libraries;             // the application libraries' hash
  std::unique_ptr<FunctionIdentities> functions GUARDED_BY(mu);
  bool read GUARDED_BY(mu) = false;
};

}  // namespace

StatusOr<std::string> WorkerIdentity(const std::string& worker_path) {
  ContentHash hash;
  Status s = RealFileSystem().Read(
      worker_path, [&](std::string_view chunk) { hash.Update(chunk); });
  if (!s.ok()) return s;
  if (s = HashLibraries(LibrariesOf(worker_path), &hash); !s.ok()) return s;
  return "w:" + Hex16(hash.Digest()) + ":" + std::to_string(hash.size());
}

CodeIdentity ReadCodeIdentity(const std::string& worker_path) {
  CodeIdentity code;
  auto code_state = std::make_shared<FunctionCode>();
  ContentHash whole, libraries;
  std::string image;
  Status s = RealFileSystem().Read(worker_path, [&](std::string_view chunk) {
    whole.Update(chunk);
    image.append(chunk);
  });
  const std::vector<std::string> libs =
      s.ok() ? LibrariesOf(worker_path) : std::vector<std::string>{};
  if (s.ok()) s = HashLibraries(libs, &whole);
  if (s.ok()) s = HashLibraries(libs, &libraries);
  if (!s.ok()) {
    // Unknown: this run reuses nothing, and nothing reuses this run.
    code.worker = "w:unreadable:" + std::to_string(::getpid());
    return code;
  }
  code.worker =
      "w:" + Hex16(whole.Digest()) + ":" + std::to_string(whole.size());
  code_state->libraries = Hex16(libraries.Digest());
  {
    MutexLock lock(&code_state->mu);
    code_state->image = std::move(image);
  }
  code.of_operation = [code_state](const std::string& op) -> std::string {
    FunctionCode& c = *code_state;
    MutexLock lock(&c.mu);
    if (!c.read) {
      c.read = true;
      auto functions = FunctionIdentities::Read(std::move(c.image));
      c.image.clear();
      if (functions.ok()) c.functions = std::move(*functions);
    }
    if (!c.functions) return "";
    auto id = c.functions->Of(op);
    if (!id.ok()) return "";
    Sha256 with_libraries;
    with_libraries.Update(*id);
    with_libraries.Update(c.libraries);
    return "f:" + with_libraries.Hex().substr(0, 32);
  };
  return code;
}

}  // namespace gs
