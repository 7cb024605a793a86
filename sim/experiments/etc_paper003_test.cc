#include "sim/experiments/etc_paper003.h"

#include <gtest/gtest.h>

#include <cmath>
#include <ostream>

#include "sim/instances/etc_test_data.h"

namespace gs {

void PrintTo(const Paper003Row& row, std::ostream* os) { *os << row.instance; }

namespace {

TEST(Paper003Test, FailureListIsConvertedFromOneBased) {
  auto f = Paper003Failures512x16();
  ASSERT_EQ(f.size(), 8u);
  EXPECT_EQ(f[0].machine, 9u);       // M10 ...
  EXPECT_EQ(f[0].first_task, 164u);  // ... from T165 on
  EXPECT_EQ(f[4].machine, 0u);       // M1 from T234
  EXPECT_EQ(f[4].first_task, 233u);
}

// Table 2 prints makespans with 5 significant digits, table 3 utilisations
// with 4 decimals: ours must round to the printed figure.
void ExpectRoundsTo(double ours, double paper, double unit, const char* what) {
  EXPECT_LE(std::abs(ours - paper), 0.5 * unit * (1 + 1e-9))
      << what << ": ours " << ours << ", paper " << paper;
}
double FifthDigit(double x) {
  return std::pow(10.0, std::floor(std::log10(x)) - 4);
}

class Paper003TableTest : public ::testing::TestWithParam<Paper003Row> {};

TEST_P(Paper003TableTest, Table2And3ReproducedWithTheFailures) {
  const Paper003Row& row = GetParam();
  auto etc = LoadBraunInstance(std::string(row.instance));
  ASSERT_TRUE(etc.ok()) << etc.status().ToString();
  struct Col {
    const char* policy;
    double makespan, utilisation;
  } cols[] = {{"met", row.met, row.met_u},
              {"ftmet", row.ftmet, row.ftmet_u},
              {"mct", row.mct, row.mct_u},
              {"ftmct", row.ftmct, row.ftmct_u}};
  for (const Col& c : cols) {
    auto run = MapWithPolicy(*etc, c.policy, Paper003Failures512x16());
    ASSERT_TRUE(run.ok()) << run.status().ToString();
    ExpectRoundsTo(run->makespan, c.makespan, FifthDigit(c.makespan), c.policy);
    ExpectRoundsTo(run->utilisation_used, c.utilisation, 1e-4, c.policy);
    bool fault_tolerant = c.policy[0] == 'f';
    EXPECT_EQ(run->num_lost == 0, fault_tolerant) << c.policy;
  }
}

TEST(Paper003Test, MetOnUcHihiRuns233Tasks) {
  // The paper's own count: "512 - 279 (total number of failed task) = 233".
  auto etc = LoadBraunInstance("u_c_hihi.0");
  ASSERT_TRUE(etc.ok()) << etc.status().ToString();
  auto run = MapWithPolicy(*etc, "met", Paper003Failures512x16());
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  EXPECT_EQ(run->num_lost, 279u);
}

INSTANTIATE_TEST_SUITE_P(Braun512x16, Paper003TableTest,
                         ::testing::ValuesIn(Paper003Table512x16()),
                         [](const auto& info) {
                           std::string n(info.param.instance);
                           return n.substr(0, n.find('.'));
                         });

}  // namespace
}  // namespace gs
