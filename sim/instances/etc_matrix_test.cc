#include "sim/instances/etc_matrix.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

namespace gs {
namespace {

using ::testing::HasSubstr;

std::string ErrorOf(std::string_view text) {
  auto m = ParseEtc(text, "x.etc");
  EXPECT_FALSE(m.ok()) << "parsed although malformed: " << text;
  return m.ok() ? "" : m.status().message();
}

TEST(EtcMatrixTest, ParsesTaskMajorValuesOnAnyLayout) {
  auto m = ParseEtc("2 3 0\n1 2\n3\n4.5 5e1\n\n6\n", "x.etc");
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->tasks, 2u);
  EXPECT_EQ(m->machines, 3u);
  EXPECT_DOUBLE_EQ(m->time(0, 2), 3);
  EXPECT_DOUBLE_EQ(m->time(1, 0), 4.5);
  EXPECT_DOUBLE_EQ(m->time(1, 1), 50);
  EXPECT_DOUBLE_EQ(m->time(1, 2), 6);
}

TEST(EtcMatrixTest, AcceptsCrLfAndNoFinalNewline) {
  auto m = ParseEtc("1 2 0\r\n7\r\n8", "x.etc");
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_DOUBLE_EQ(m->time(0, 1), 8);
}

TEST(EtcMatrixTest, BadHeaderNamesLineOne) {
  EXPECT_THAT(ErrorOf("2 3\n1 2 3 4 5 6\n"), HasSubstr("x.etc:1: expected"));
  EXPECT_THAT(ErrorOf("2 3 0 9\n1\n"), HasSubstr("x.etc:1:"));
  EXPECT_THAT(ErrorOf("two 3 0\n"), HasSubstr("'two 3 0'"));
  EXPECT_THAT(ErrorOf("0 3 0\n"), HasSubstr("no tasks"));
  EXPECT_THAT(ErrorOf(""), HasSubstr("x.etc:1:"));
}

TEST(EtcMatrixTest, HugeHeaderIsRejectedBeforeAllocating) {
  EXPECT_THAT(ErrorOf("99999999999 16 0\n1\n"),
              HasSubstr("more than the file can hold"));
}

TEST(EtcMatrixTest, BadValueNamesItsLine) {
  EXPECT_THAT(ErrorOf("1 3 0\n1\n2x\n3\n"),
              HasSubstr("x.etc:3: expected a number (value 2), found '2x'"));
  EXPECT_THAT(ErrorOf("1 2 0\n1 -2\n"), HasSubstr("x.etc:2: execution time"));
  EXPECT_THAT(ErrorOf("1 2 0\n1\ninf\n"), HasSubstr("x.etc:3:"));
}

TEST(EtcMatrixTest, TooFewOrTooManyValues) {
  EXPECT_THAT(ErrorOf("2 2 0\n1 2\n3\n"),
              HasSubstr("x.etc:3: the file ends after 3 of the 4 values"));
  EXPECT_THAT(ErrorOf("1 2 0\n1 2\n3\n"),
              HasSubstr("x.etc:3: unexpected '3' after the 2 values"));
}

TEST(EtcMatrixTest, LoadsAFileAndNamesAMissingOne) {
  auto dir = std::filesystem::temp_directory_path() /
             ("etc_matrix_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::string path = (dir / "a.etc").string();
  std::ofstream(path) << "1 1 0\n42\n";
  auto m = LoadEtcFile(path);
  auto missing = LoadEtcFile((dir / "none.etc").string());
  std::filesystem::remove_all(dir);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_DOUBLE_EQ(m->time(0, 0), 42);
  ASSERT_FALSE(missing.ok());
  EXPECT_THAT(missing.status().message(), HasSubstr("none.etc"));
}

}  // namespace
}  // namespace gs
