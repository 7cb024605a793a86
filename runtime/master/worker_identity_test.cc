#include "runtime/master/worker_identity.h"

#include <gtest/gtest.h>

#include <fstream>

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

}  // namespace
}  // namespace gs
