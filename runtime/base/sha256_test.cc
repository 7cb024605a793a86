#include "runtime/base/sha256.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <fstream>
#include <string>

namespace gs {
namespace {

TEST(Sha256Test, KnownVectors) {
  Sha256 empty;
  EXPECT_EQ(empty.Hex(),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  Sha256 abc;
  abc.Update("a");
  abc.Update("bc");  // in pieces: same as "abc"
  EXPECT_EQ(abc.Hex(),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(Sha256Test, DigestsAFileAndReportsAMissingOne) {
  char tmpl[] = "/tmp/gsrt-sha-XXXXXX";
  int fd = ::mkstemp(tmpl);
  ASSERT_GE(fd, 0);
  ::close(fd);
  {
    std::ofstream out(tmpl, std::ios::binary);
    out << "abc";
  }
  auto d = DigestFile(tmpl);
  ::unlink(tmpl);
  ASSERT_TRUE(d.ok()) << d.status().ToString();
  EXPECT_EQ(d->size, 3u);
  EXPECT_EQ(d->sha256,
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  auto missing = DigestFile(std::string(tmpl) + ".none");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find(".none"), std::string::npos);
}

}  // namespace
}  // namespace gs
