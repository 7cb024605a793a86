#include "runtime/master/function_identity.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

namespace gs {
namespace {

std::string Slurp(const char* path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// The identity of each probe function in the program at `path`.
std::map<std::string, std::string> IdentitiesOf(const char* path) {
  auto ids = FunctionIdentities::Read(Slurp(path));
  EXPECT_TRUE(ids.ok()) << path << ": " << ids.status().ToString();
  std::map<std::string, std::string> result;
  if (!ids.ok()) return result;
  for (const char* f : {"alpha", "beta", "gamma_says", "delta"}) {
    auto id = (*ids)->Of(f);
    EXPECT_TRUE(id.ok()) << f << ": " << id.status().ToString();
    if (id.ok()) result[f] = *id;
  }
  return result;
}

// Which functions' identities differ between the base build and `variant`.
std::vector<std::string> Moved(const char* variant) {
  auto base = IdentitiesOf(GSRT_PROBE_base);
  auto other = IdentitiesOf(variant);
  std::vector<std::string> moved;
  for (const auto& [f, id] : base) {
    if (other[f] != id) moved.push_back(f);
  }
  return moved;
}

using Names = std::vector<std::string>;

TEST(FunctionIdentityTest, SameBuildSameIdentities) {
  auto a = IdentitiesOf(GSRT_PROBE_base);
  auto b = IdentitiesOf(GSRT_PROBE_base);
  ASSERT_EQ(a.size(), 4u);
  EXPECT_EQ(a, b);
  EXPECT_EQ(a["alpha"].rfind("f:", 0), 0u) << a["alpha"];
  EXPECT_EQ(a["alpha"].size(), 2u + 32u);
  EXPECT_NE(a["alpha"], a["beta"]);
}

TEST(FunctionIdentityTest, AChangedFunctionMovesOnlyItself) {
  EXPECT_EQ(Moved(GSRT_PROBE_ALPHA), Names{"alpha"});
}

// beta calls a static helper of its own file: a call the assembler
// resolved, with no relocation, found by the scan of PC-relative words.
TEST(FunctionIdentityTest, AChangedHelperMovesItsCallers) {
  EXPECT_EQ(Moved(GSRT_PROBE_HELPER), Names{"beta"});
}

TEST(FunctionIdentityTest, AChangedStringLiteralMovesItsReader) {
  EXPECT_EQ(Moved(GSRT_PROBE_STRING), Names{"gamma_says"});
}

TEST(FunctionIdentityTest, AChangedConstantTableMovesItsReader) {
  EXPECT_EQ(Moved(GSRT_PROBE_TABLE), Names{"delta"});
}

TEST(FunctionIdentityTest, CountsThePiecesItHashed) {
  auto ids = FunctionIdentities::Read(Slurp(GSRT_PROBE_base));
  ASSERT_TRUE(ids.ok());
  ASSERT_TRUE((*ids)->Of("beta").ok());
  // beta, Helper, and the static initializers' pieces at least.
  EXPECT_GE((*ids)->last_pieces(), 3u);
}

TEST(FunctionIdentityTest, UnknownFunctionIsNotFound) {
  auto ids = FunctionIdentities::Read(Slurp(GSRT_PROBE_base));
  ASSERT_TRUE(ids.ok());
  auto id = (*ids)->Of("no_such_function");
  ASSERT_FALSE(id.ok());
  EXPECT_EQ(id.status().code(), Status::Code::kNotFound);
  EXPECT_NE(id.status().message().find("no_such_function"), std::string::npos);
}

TEST(FunctionIdentityTest, WithoutKeptRelocationsItSaysHowToLink) {
  auto ids = FunctionIdentities::Read(Slurp(GSRT_PROBE_NORELOCS));
  ASSERT_FALSE(ids.ok());
  EXPECT_EQ(ids.status().code(), Status::Code::kFailedPrecondition);
  EXPECT_NE(ids.status().message().find("--emit-relocs"), std::string::npos)
      << ids.status().ToString();
}

TEST(FunctionIdentityTest, NotAnElfFileIsInvalid) {
  auto ids = FunctionIdentities::Read("#!/bin/sh\necho worker\n");
  ASSERT_FALSE(ids.ok());
  EXPECT_EQ(ids.status().code(), Status::Code::kInvalidArgument);
  auto truncated =
      FunctionIdentities::Read(Slurp(GSRT_PROBE_base).substr(0, 100));
  EXPECT_FALSE(truncated.ok());
}

}  // namespace
}  // namespace gs
