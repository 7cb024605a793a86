#include "runtime/master/worker_identity.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>

#include "runtime/base/asio_clock.h"
#include "runtime/base/file_io.h"
#include "runtime/base/file_system.h"
#include "runtime/base/hashing.h"
#include "runtime/base/mutex.h"
#include "runtime/base/process_spawn.h"
#include "runtime/base/sha256.h"
#include "runtime/master/code_facts.h"
#include "runtime/master/function_identity.h"

namespace gs {

namespace fs = std::filesystem;

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

// Adds the application libraries' names and bytes to `a` and `b`, each
// library read once.
Status HashLibraries(const std::vector<std::string>& libraries, ContentHash* a,
                     ContentHash* b) {
  for (const std::string& library : libraries) {
    const std::string name = library.substr(library.rfind('/') + 1);
    a->Update(name);
    b->Update(name);
    Status s = RealFileSystem().Read(library, [&](std::string_view chunk) {
      a->Update(chunk);
      b->Update(chunk);
    });
    if (!s.ok()) return s;
  }
  return Status::Ok();
}

// What each operation's identity is made of, read at the first need.
struct FunctionCode {
  Mutex mu;
  std::string image GUARDED_BY(mu);  // the worker's bytes, if read
  bool read GUARDED_BY(mu) = false;
  std::unique_ptr<FunctionIdentities> functions GUARDED_BY(mu);
  CodeFacts facts GUARDED_BY(mu);
  std::string facts_path;  // "" = not kept
};

Status SaveFacts(const std::string& path, const CodeFacts& facts) {
  if (path.empty()) return Status::Ok();
  std::string text = FormatCodeFacts(facts);
  if (text.empty()) return Status::Ok();  // a path it cannot keep
  AtomicWriteOptions options;
  options.sync = false;  // lost with a crash: learnt again
  return WriteFileAtomically(path, text, options);
}

// Learns the facts of the worker at `worker_path` (reads it and its
// application libraries); its bytes go to `image`.
Status LearnFacts(const std::string& worker_path, const std::string& env,
                  CodeFacts* facts, std::string* image) {
  facts->worker_path = worker_path;
  facts->ld_library_path = env;
  facts->learnt = WallClockNow();
  // Stamped before reading: a change while reading leaves another stamp.
  facts->sources.push_back({worker_path, StampOf(worker_path)});
  ContentHash whole, libraries;
  Status s = RealFileSystem().Read(worker_path, [&](std::string_view chunk) {
    whole.Update(chunk);
    image->append(chunk);
  });
  if (!s.ok()) return s;
  const std::vector<std::string> libs = LibrariesOf(worker_path);
  for (const std::string& library : libs)
    facts->sources.push_back({library, StampOf(library)});
  for (const std::string& dir : GuardDirectories(worker_path, libs, env))
    facts->sources.push_back({dir, StampOf(dir, true)});
  if (s = HashLibraries(libs, &whole, &libraries); !s.ok()) return s;
  facts->whole =
      "w:" + Hex16(whole.Digest()) + ":" + std::to_string(whole.size());
  facts->libraries = Hex16(libraries.Digest());
  return Status::Ok();
}

}  // namespace

StatusOr<std::string> WorkerIdentity(const std::string& worker_path) {
  CodeFacts facts;
  std::string image;
  const char* ld = std::getenv("LD_LIBRARY_PATH");
  Status s = LearnFacts(worker_path, ld ? ld : "", &facts, &image);
  if (!s.ok()) return s;
  return facts.whole;
}

CodeIdentity ReadCodeIdentity(const std::string& worker_path,
                              const std::string& work_dir) {
  const char* ld = std::getenv("LD_LIBRARY_PATH");
  const std::string env = ld ? ld : "";
  auto state = std::make_shared<FunctionCode>();
  if (!work_dir.empty()) state->facts_path = work_dir + "/code-facts";
  CodeFacts facts;
  std::string text;
  bool known = false;
  if (!state->facts_path.empty() &&
      RealFileSystem()
          .Read(state->facts_path,
                [&](std::string_view chunk) { text.append(chunk); })
          .ok()) {
    known =
        ParseCodeFacts(text, &facts) && CodeFactsHold(facts, worker_path, env);
  }
  std::string image;
  if (!known) {
    facts = CodeFacts();
    if (!LearnFacts(worker_path, env, &facts, &image).ok()) {
      // Unknown: this run reuses nothing, and nothing reuses this run.
      return CodeIdentity{"w:unreadable:" + std::to_string(::getpid()),
                          nullptr};
    }
    if (fs::is_directory(work_dir)) SaveFacts(state->facts_path, facts);
  }
  CodeIdentity code;
  code.worker = facts.whole;
  {
    MutexLock lock(&state->mu);
    state->read = known;  // the facts hold: read the worker only if needed
    state->image = std::move(image);
    state->facts = std::move(facts);
  }
  code.of_operation = [state,
                       worker_path](const std::string& op) -> std::string {
    FunctionCode& c = *state;
    MutexLock lock(&c.mu);
    if (auto it = c.facts.functions.find(op); it != c.facts.functions.end())
      return it->second;
    if (c.read && !c.functions && c.image.empty()) {
      // Learnt by an earlier run: read the worker now, if unchanged.
      std::string bytes;
      if (!StampStillHolds(c.facts.sources[0].stamp, c.facts.learnt,
                           StampOf(worker_path)) ||
          !RealFileSystem()
               .Read(worker_path,
                     [&](std::string_view chunk) { bytes.append(chunk); })
               .ok()) {
        return "";
      }
      c.image = std::move(bytes);
      c.read = false;
    }
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
    with_libraries.Update(c.facts.libraries);
    std::string result = "f:" + with_libraries.Hex().substr(0, 32);
    c.facts.functions[op] = result;
    SaveFacts(c.facts_path, c.facts);
    return result;
  };
  return code;
}

}  // namespace gs
