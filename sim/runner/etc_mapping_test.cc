#include "sim/runner/etc_mapping.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "sim/instances/etc_test_data.h"

namespace gs {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

EtcMatrix Matrix(size_t machines, std::vector<Seconds> values) {
  return EtcMatrix{values.size() / machines, machines, std::move(values)};
}

// Table 1 of paper 003: 4 tasks x 3 machines, arriving T1..T4.
EtcMatrix PaperTable1() {
  return Matrix(3, {120, 75, 32,  //
                    40, 110, 93,  //
                    71, 24, 49,   //
                    23, 34, 47});
}

EtcRun MapOrFail(const EtcMatrix& etc, std::string_view policy,
                 const std::vector<MachineFailure>& failures = {}) {
  auto run = MapWithPolicy(etc, policy, failures);
  EXPECT_TRUE(run.ok()) << run.status().ToString();
  return run.ok() ? std::move(run).value() : EtcRun{};
}

// The worked examples of paper 003, section 5 (M1 down from the start).
TEST(EtcMappingTest, PaperTable1MetAndMct) {
  EtcRun met = MapOrFail(PaperTable1(), "met");
  EXPECT_THAT(met.machine_of, ElementsAre(2, 0, 1, 0));
  EXPECT_DOUBLE_EQ(met.makespan, 63);
  EtcRun mct = MapOrFail(PaperTable1(), "mct");
  EXPECT_THAT(mct.machine_of, ElementsAre(2, 0, 1, 1));
  EXPECT_DOUBLE_EQ(mct.makespan, 58);
}

TEST(EtcMappingTest, PaperTable1WithM1Failed) {
  std::vector<MachineFailure> m1_down = {{0, 0}};
  EtcRun ftmet = MapOrFail(PaperTable1(), "ftmet", m1_down);
  EXPECT_THAT(ftmet.machine_of, ElementsAre(2, 2, 1, 1));
  EXPECT_DOUBLE_EQ(ftmet.makespan, 125);
  EXPECT_EQ(ftmet.num_lost, 0u);
  EtcRun ftmct = MapOrFail(PaperTable1(), "ftmct", m1_down);
  EXPECT_THAT(ftmct.machine_of, ElementsAre(2, 1, 2, 2));
  EXPECT_DOUBLE_EQ(ftmct.makespan, 128);
  // Plain MET does not notice: T2 and T4 go to M1 and are lost.
  EtcRun met = MapOrFail(PaperTable1(), "met", m1_down);
  EXPECT_THAT(met.lost, ElementsAre(false, true, false, true));
  EXPECT_DOUBLE_EQ(met.ready[0], 63);  // what the broker believes
  EXPECT_DOUBLE_EQ(met.busy[0], 0);
  EXPECT_DOUBLE_EQ(met.makespan, 32);
}

TEST(EtcMappingTest, TasksMappedBeforeTheFailureRunAndCount) {
  // One fast machine; it fails before task 2. MET keeps mapping there and
  // loses tasks 2 and 3; FTMET moves them to machine 1.
  EtcMatrix etc = Matrix(2, {1, 10, 2, 20, 4, 40, 8, 80});
  std::vector<MachineFailure> fail = {{0, 2}};
  EtcRun met = MapOrFail(etc, "met", fail);
  EXPECT_THAT(met.lost, ElementsAre(false, false, true, true));
  EXPECT_DOUBLE_EQ(met.makespan, 3);
  EXPECT_DOUBLE_EQ(met.utilisation_used, 1);
  EXPECT_DOUBLE_EQ(met.utilisation_all, 0.5);
  EtcRun ftmet = MapOrFail(etc, "ftmet", fail);
  EXPECT_THAT(ftmet.machine_of, ElementsAre(0, 0, 1, 1));
  EXPECT_THAT(ftmet.busy, ElementsAre(3, 120));
  EXPECT_DOUBLE_EQ(ftmet.utilisation_used, 123.0 / 240);
}

TEST(EtcMappingTest, TiesGoToTheLowestMachine) {
  EtcMatrix etc = Matrix(3, {5, 5, 5, 5, 5, 5, 1, 1, 1});
  EXPECT_THAT(MapOrFail(etc, "met").machine_of, ElementsAre(0, 0, 0));
  EXPECT_THAT(MapOrFail(etc, "mct").machine_of, ElementsAre(0, 1, 2));
  // M1 down: task 1 goes to M2; task 2 then ends at 6 on M0 and on M2.
  EXPECT_THAT(MapOrFail(etc, "ftmct", {{1, 0}}).machine_of,
              ElementsAre(0, 2, 0));
  EXPECT_THAT(MapOrFail(etc, "min-min").machine_of, ElementsAre(1, 2, 0));
}

TEST(EtcMappingTest, MinMinMapsTheShortestTaskFirst) {
  // MCT maps task 0 first, to machine 0, then task 1 behind it there;
  // Min-Min maps the shorter task 1 first and task 0 to machine 1.
  EtcMatrix etc = Matrix(2, {3, 4, 2, 10});
  EtcRun mct = MapOrFail(etc, "mct");
  EXPECT_THAT(mct.machine_of, ElementsAre(0, 0));
  EXPECT_DOUBLE_EQ(mct.makespan, 5);
  EtcRun mm = MapOrFail(etc, "min-min");
  EXPECT_THAT(mm.machine_of, ElementsAre(1, 0));
  EXPECT_DOUBLE_EQ(mm.makespan, 4);
}

TEST(EtcMappingTest, Errors) {
  EtcMatrix etc = PaperTable1();
  auto bad_machine = MapWithPolicy(etc, "ftmet", {{3, 0}});
  ASSERT_FALSE(bad_machine.ok());
  EXPECT_THAT(bad_machine.status().message(), HasSubstr("3 machines"));
  auto all_down = MapWithPolicy(etc, "ftmct", {{0, 1}, {1, 1}, {2, 2}});
  ASSERT_FALSE(all_down.ok());
  EXPECT_THAT(all_down.status().message(), HasSubstr("task 2"));
  EXPECT_FALSE(MapWithPolicy(etc, "min-min", {{0, 0}}).ok());
  EXPECT_FALSE(MapWithPolicy(etc, "fastest", {}).ok());
}

TEST(EtcMappingTest, PolicyHealthIsDetachedAfterTheRun) {
  auto policy = MakePolicy("ftmet");
  ASSERT_TRUE(policy.ok());
  EtcMatrix etc = PaperTable1();
  ASSERT_TRUE(MapImmediate(etc, **policy, {{0, 0}}).ok());
  // Same object, no failures: M1 is usable again (no dangling view).
  auto again = MapImmediate(etc, **policy, {});
  ASSERT_TRUE(again.ok());
  EXPECT_DOUBLE_EQ(again->makespan, 63);
}

// Reference makespans of sim/data/README.md, no failures.
struct Reference {
  const char* instance;
  double met, mct, min_min;
};

class BraunReferenceTest : public ::testing::TestWithParam<Reference> {};

TEST_P(BraunReferenceTest, MakespansMatchTheReferenceTo0_01Percent) {
  const Reference& ref = GetParam();
  auto etc = LoadBraunInstance(ref.instance);
  ASSERT_TRUE(etc.ok()) << etc.status().ToString();
  ASSERT_EQ(etc->tasks, 512u);
  ASSERT_EQ(etc->machines, 16u);
  for (auto [name, want] : {std::pair{"met", ref.met},
                            {"mct", ref.mct},
                            {"min-min", ref.min_min}}) {
    EtcRun run = MapOrFail(*etc, name);
    EXPECT_NEAR(run.makespan, want, want * 1e-4) << name;
    EXPECT_EQ(run.num_lost, 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Braun512x16, BraunReferenceTest,
    ::testing::Values(Reference{"u_c_hihi.0", 47472299.43, 11422624.49,
                                8460675.00},
                      Reference{"u_c_hilo.0", 1185092.97, 185887.40, 161805.43},
                      Reference{"u_c_lohi.0", 1453098.00, 378303.62, 275837.36},
                      Reference{"u_c_lolo.0", 39582.30, 6360.05, 5441.43}),
    [](const auto& info) {
      std::string n = info.param.instance;
      return n.substr(0, n.find('.'));
    });

}  // namespace
}  // namespace gs
