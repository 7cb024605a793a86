// The version needs read from real ELF files (this test program, which
// links glibc and libstdc++) and refused for bytes that are not one.
// tests/version_verbose_test.sh compares them with objdump's.
#include "runtime/inspect/elf_requirements.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace gs {
namespace {

std::string SelfImage() {
  std::ifstream in("/proc/self/exe", std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

TEST(ElfRequirementsTest, ReadsThisProgramsNeedsOfGlibcAndLibstdcxx) {
  StatusOr<VersionNeeds> needs = ReadVersionNeeds(SelfImage());
  ASSERT_TRUE(needs.ok()) << needs.status().message();
  ASSERT_TRUE(needs->count("libc.so.6"));
  EXPECT_FALSE(HighestVersion(needs->at("libc.so.6"), "GLIBC_").empty());
  ASSERT_TRUE(needs->count("libstdc++.so.6"));
  EXPECT_FALSE(HighestVersion(needs->at("libstdc++.so.6"), "GLIBCXX_").empty());
}

TEST(ElfRequirementsTest, DescribesTheHighestVersions) {
  std::string line = DescribeRuntimeNeeds("/proc/self/exe");
  EXPECT_EQ(line.rfind("glibc >= 2.", 0), 0u) << line;
  EXPECT_NE(line.find(", libstdc++ >= 3.4."), std::string::npos) << line;
}

TEST(ElfRequirementsTest, ComparesVersionsNumberByNumber) {
  std::set<std::string> versions = {"GLIBC_2.4", "GLIBC_2.34", "GLIBC_2.2.5",
                                    "GLIBC_PRIVATE", "GLIBCXX_3.4.30"};
  EXPECT_EQ(HighestVersion(versions, "GLIBC_"), "GLIBC_2.34");
  EXPECT_EQ(HighestVersion(versions, "GLIBCXX_"), "GLIBCXX_3.4.30");
  EXPECT_EQ(HighestVersion(versions, "CXXABI_"), "");
}

TEST(ElfRequirementsTest, RefusesWhatIsNotAnElfFile) {
  EXPECT_FALSE(ReadVersionNeeds("").ok());
  EXPECT_FALSE(ReadVersionNeeds("#!/bin/sh\necho hi\n").ok());
  // A real header whose section headers are cut off.
  std::string cut = SelfImage().substr(0, 64);
  StatusOr<VersionNeeds> needs = ReadVersionNeeds(cut);
  ASSERT_FALSE(needs.ok());
  EXPECT_NE(needs.status().message().find("past the end"), std::string::npos);
}

TEST(ElfRequirementsTest, SaysWhyAFileCannotBeRead) {
  EXPECT_EQ(
      DescribeRuntimeNeeds("/nonexistent/gsrt").rfind("cannot be read", 0), 0u);
}

}  // namespace
}  // namespace gs
