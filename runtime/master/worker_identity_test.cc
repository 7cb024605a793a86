#include "runtime/master/worker_identity.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "runtime/base/file_io.h"
#include "runtime/master/code_facts.h"
#include "tests/support/temp_dir.h"

namespace gs {
namespace {

TEST(WorkerIdentityTest, ChangesWithTheBinarysBytesOnly) {
  TempDir dir;
  std::ofstream(dir / "w1", std::ios::binary) << "\x7f"
                                                 "ELF code of count()";
  std::ofstream(dir / "w2", std::ios::binary) << "\x7f"
                                                 "ELF code of count()";
  std::ofstream(dir / "w3", std::ios::binary) << "\x7f"
                                                 "ELF code of count!)";
  auto a = WorkerIdentity(dir / "w1");
  auto b = WorkerIdentity(dir / "w2");
  auto c = WorkerIdentity(dir / "w3");
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  EXPECT_EQ(*a, *b) << "same bytes, another path";
  EXPECT_NE(*a, *c) << "one byte changed";
  EXPECT_EQ(a->rfind("w:", 0), 0u) << *a;
}

TEST(WorkerIdentityTest, MissingWorkerIsAnError) {
  TempDir dir;
  auto id = WorkerIdentity(dir / "none");
  EXPECT_FALSE(id.ok());
}

TEST(WorkerIdentityTest, ApplicationLibrariesAreThoseOutsideTheSystem) {
  const char* listing =
      "\tlinux-vdso.so.1 (0x00007ffd)\n"
      "\tlibsteps.so => /home/ann/app/build/libsteps.so (0x00007f01)\n"
      "\tlibgsrt.so.0 => /opt/gsrt/lib/libgsrt.so.0 (0x00007f02)\n"
      "\tlibstdc++.so.6 => /lib/x86_64-linux-gnu/libstdc++.so.6 (0x00007f03)\n"
      "\tlibblas.so.3 => /usr/lib/x86_64-linux-gnu/libblas.so.3 (0x7f04)\n"
      "\tlibmine.so => /usr/local/lib/libmine.so (0x00007f05)\n"
      "\tlibgone.so => not found\n"
      "\t/lib64/ld-linux-x86-64.so.2 (0x00007f06)\n";
  EXPECT_EQ(ApplicationLibraries(listing),
            (std::vector<std::string>{"/home/ann/app/build/libsteps.so",
                                      "/usr/local/lib/libmine.so"}));
  EXPECT_TRUE(ApplicationLibraries("\tnot a dynamic executable\n").empty());
}

// A worker whose functions are in a library of the application: changing
// the library changes the identity, as a rebuilt worker does.
TEST(WorkerIdentityTest, ChangesWithTheApplicationLibrariesItLoads) {
  namespace fs = std::filesystem;
  TempDir dir;
  const fs::path lib = dir / fs::path(GSRT_IDENTITY_PROBE_LIB).filename();
  fs::copy_file(GSRT_IDENTITY_PROBE_LIB, lib);
  // The loader looks in LD_LIBRARY_PATH before the probe's RUNPATH.
  const char* old = std::getenv("LD_LIBRARY_PATH");
  const std::string saved = old ? old : "";
  setenv("LD_LIBRARY_PATH", dir.path().c_str(), 1);
  auto before = WorkerIdentity(GSRT_IDENTITY_PROBE);
  std::ofstream(lib, std::ios::binary | std::ios::app) << "changed";
  auto after = WorkerIdentity(GSRT_IDENTITY_PROBE);
  if (old) {
    setenv("LD_LIBRARY_PATH", saved.c_str(), 1);
  } else {
    unsetenv("LD_LIBRARY_PATH");
  }
  ASSERT_TRUE(before.ok() && after.ok());
  EXPECT_NE(*before, *after) << "the library changed, the identity did not";
}

// A later run of the work dir takes the worker's identity from the facts
// the first kept while the worker stats as it did, and learns it again
// once the worker changed.
TEST(WorkerIdentityTest, ReadCodeIdentityKeepsWhatItLearnt) {
  namespace fs = std::filesystem;
  TempDir dir;
  const std::string worker = dir / "app-worker";
  fs::copy_file(GSRT_IDENTITY_PROBE, worker);
  const std::string work_dir = dir / ".gsrt";
  fs::create_directories(work_dir);
  CodeIdentity first = ReadCodeIdentity(worker, work_dir);
  EXPECT_EQ(first.worker, *WorkerIdentity(worker));
  std::ifstream in(work_dir + "/code-facts");
  std::stringstream text;
  text << in.rdbuf();
  CodeFacts facts;
  ASSERT_TRUE(ParseCodeFacts(text.str(), &facts)) << text.str();
  EXPECT_EQ(facts.whole, first.worker);
  // Files written within the last second are not trusted (racily clean):
  // the facts say they were learnt later, and name another identity, so
  // that the test sees which one a run takes.
  facts.learnt += 10;
  facts.whole = "w:from-the-facts";
  ASSERT_TRUE(
      WriteFileAtomically(work_dir + "/code-facts", FormatCodeFacts(facts))
          .ok());
  EXPECT_EQ(ReadCodeIdentity(worker, work_dir).worker, "w:from-the-facts");
  std::ofstream(worker, std::ios::binary | std::ios::app) << "rebuilt";
  CodeIdentity after = ReadCodeIdentity(worker, work_dir);
  EXPECT_EQ(after.worker, *WorkerIdentity(worker));
  EXPECT_NE(after.worker, first.worker);
}

// Each operation's identity is its function's code: kept in the facts, the
// same when a later run reads the worker again, and moved only for the
// function that changed when the worker is rebuilt.
TEST(WorkerIdentityTest, ReadCodeIdentityNamesEachFunctionsCode) {
  namespace fs = std::filesystem;
  TempDir dir;
  const std::string worker = dir / "app-worker";
  const std::string work_dir = dir / ".gsrt";
  fs::create_directories(work_dir);
  fs::copy_file(GSRT_PROBE_base, worker);
  CodeIdentity code = ReadCodeIdentity(worker, work_dir);
  const std::string alpha = code.Of("alpha"), beta = code.Of("beta");
  EXPECT_EQ(alpha.rfind("f:", 0), 0u) << alpha;
  EXPECT_NE(alpha, beta);
  EXPECT_EQ(code.Of("no_such_function"), code.worker)
      << "the whole worker stands in";
  // A later run whose facts hold: the worker is read again for the
  // functions the facts do not name yet, and gives the same identities.
  std::ifstream in(work_dir + "/code-facts");
  std::stringstream text;
  text << in.rdbuf();
  CodeFacts facts;
  ASSERT_TRUE(ParseCodeFacts(text.str(), &facts));
  EXPECT_EQ(facts.functions["alpha"], alpha);
  facts.learnt += 10;  // as if learnt well after the copy (racily clean)
  facts.functions.erase("beta");
  ASSERT_TRUE(
      WriteFileAtomically(work_dir + "/code-facts", FormatCodeFacts(facts))
          .ok());
  CodeIdentity again = ReadCodeIdentity(worker, work_dir);
  EXPECT_EQ(again.Of("alpha"), alpha);
  EXPECT_EQ(again.Of("beta"), beta);
  // Rebuilt with alpha changed: alpha moves, beta does not.
  fs::remove(worker);
  fs::copy_file(GSRT_PROBE_ALPHA, worker);
  CodeIdentity rebuilt = ReadCodeIdentity(worker, work_dir);
  EXPECT_NE(rebuilt.Of("alpha"), alpha);
  EXPECT_EQ(rebuilt.Of("beta"), beta);
  EXPECT_NE(rebuilt.worker, code.worker);
}

TEST(WorkerIdentityTest, ReadCodeIdentityOfAnUnreadableWorkerIsUnique) {
  TempDir dir;
  CodeIdentity a = ReadCodeIdentity(dir / "none", "");
  EXPECT_EQ(a.worker.rfind("w:unreadable:", 0), 0u) << a.worker;
}

}  // namespace
}  // namespace gs
