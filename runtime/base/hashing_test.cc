#include "runtime/base/hashing.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>

#include "runtime/base/sha256.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_files.h"

namespace gs {
namespace {

TEST(ContentHashTest, SplitDoesNotMatter) {
  std::mt19937 rng(3);
  std::string data(100000, '\0');
  for (char& c : data) c = static_cast<char>(rng());
  const uint64_t whole = ContentHash::Of(data);
  for (int trial = 0; trial < 50; ++trial) {
    ContentHash h;
    size_t pos = 0;
    while (pos < data.size()) {
      const size_t n = std::min<size_t>(data.size() - pos, rng() % 100);
      h.Update(std::string_view(data).substr(pos, n));
      pos += n;
    }
    EXPECT_EQ(h.Digest(), whole);
    EXPECT_EQ(h.size(), data.size());
  }
}

TEST(ContentHashTest, SeesEveryByteAndTheLength) {
  std::string data(1000, 'x');
  const uint64_t base = ContentHash::Of(data);
  for (size_t i : {0, 31, 32, 500, 999}) {
    std::string changed = data;
    changed[i] = 'y';
    EXPECT_NE(ContentHash::Of(changed), base) << i;
  }
  EXPECT_NE(ContentHash::Of(""), ContentHash::Of(std::string(1, '\0')));
  EXPECT_NE(ContentHash::Of(std::string(32, '\0')),
            ContentHash::Of(std::string(64, '\0')));
}

TEST(ContentHashTest, DigestLeavesTheStateAlone) {
  ContentHash h;
  h.Update("hello ");
  (void)h.Digest();
  h.Update("world");
  EXPECT_EQ(h.Digest(), ContentHash::Of("hello world"));
}

// Pins the algorithm: docs/agent-protocol.md quotes these values, and a
// peer built from another release must compute the same.
TEST(ContentHashTest, KnownValues) {
  std::string bytes;  // 0, 1, ..., 99: three stripes and a tail
  for (int i = 0; i < 100; ++i) bytes.push_back(static_cast<char>(i));
  EXPECT_EQ(ContentHash::Of(""), 0x67fdc85941c1c0a9ull);
  EXPECT_EQ(ContentHash::Of("gsrt"), 0x49198e629421a3f6ull);
  EXPECT_EQ(ContentHash::Of(bytes), 0x667685f34c81927ull);
}

TEST(Sha256Test, KnownVectors) {
  Sha256 empty;
  EXPECT_EQ(empty.Hex(),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  Sha256 abc;
  abc.Update("a");
  abc.Update("bc");  // in pieces: same as "abc"
  EXPECT_EQ(abc.size(), 3u);
  EXPECT_EQ(abc.Hex(),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(Sha256::HexOf("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

// More than one read's worth (1 MiB), so the chunks are joined.
TEST(HashFileTest, BothHashesOfAFileEqualThoseOfItsBytes) {
  TempDir dir;
  std::mt19937 rng(5);
  std::string data((3 << 20) + 17, '\0');
  for (char& c : data) c = static_cast<char>(rng());
  WriteText(dir / "f", data);
  ContentHash content;
  ASSERT_TRUE(HashFile(dir / "f", &content).ok());
  EXPECT_EQ(content.Digest(), ContentHash::Of(data));
  EXPECT_EQ(content.size(), data.size());
  Sha256 sha;
  ASSERT_TRUE(HashFile(dir / "f", &sha).ok());
  EXPECT_EQ(sha.size(), data.size());
  EXPECT_EQ(sha.Hex(), Sha256::HexOf(data));
}

TEST(HashFileTest, MissingIsNotFoundAndADirectoryIsAnIoError) {
  TempDir dir;
  ContentHash hash;
  Status missing = HashFile(dir / "none", &hash);
  EXPECT_EQ(missing.code(), Status::Code::kNotFound);
  EXPECT_NE(missing.message().find(dir / "none"), std::string::npos);
  Sha256 sha;
  Status directory = HashFile(dir.path(), &sha);
  EXPECT_EQ(directory.code(), Status::Code::kIoError);
  EXPECT_NE(directory.message().find(dir.path()), std::string::npos);
}

TEST(HexTest, EncodesBytesAndReadsDigits) {
  EXPECT_EQ(ToHex(std::string("\x00\x0f\xa5\xff", 4)), "000fa5ff");
  EXPECT_EQ(ToHex(""), "");
  EXPECT_EQ(HexDigitValue('0'), 0);
  EXPECT_EQ(HexDigitValue('9'), 9);
  EXPECT_EQ(HexDigitValue('a'), 10);
  EXPECT_EQ(HexDigitValue('f'), 15);
  EXPECT_EQ(HexDigitValue('g'), -1);
  EXPECT_EQ(HexDigitValue('A'), -1) << "keys and digests are lower-case";
}

}  // namespace
}  // namespace gs
