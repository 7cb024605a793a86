// The Braun reference makespans through the real engine in virtual time.
#include <gtest/gtest.h>

#include "sim/experiments/sim_experiments.h"
#include "sim/instances/etc_test_data.h"

namespace gs {
namespace {

struct Ref {
  const char* instance;
  double met, mct, minmin;
};

const Ref kRefs[] = {
    {"u_c_hihi.0", 47472299.43, 11422624.49, 8460675.00},
    {"u_c_hilo.0", 1185092.97, 185887.40, 161805.43},
    {"u_c_lohi.0", 1453098.00, 378303.62, 275837.36},
    {"u_c_lolo.0", 39582.30, 6360.05, 5441.43},
};

class SimEtcTest : public ::testing::TestWithParam<Ref> {};

TEST_P(SimEtcTest, EngineMakespansEqualTheReference) {
  const Ref& ref = GetParam();
  auto etc = LoadBraunInstance(ref.instance);
  ASSERT_TRUE(etc.ok()) << etc.status().message();
  for (auto [policy, want] : {std::pair<const char*, double>{"met", ref.met},
                              {"mct", ref.mct},
                              {"min-min", ref.minmin}}) {
    auto r = RunEtc(*etc, policy, {});
    ASSERT_TRUE(r.ok()) << r.status().message();
    EXPECT_EQ(r->tasks_done, etc->tasks) << policy;
    EXPECT_NEAR(r->makespan, want, want * 1e-4)
        << ref.instance << " " << policy;
  }
}

INSTANTIATE_TEST_SUITE_P(Braun, SimEtcTest, ::testing::ValuesIn(kRefs),
                         [](const auto& info) {
                           std::string n = info.param.instance;
                           for (char& c : n)
                             if (c == '.') c = '_';
                           return n;
                         });

}  // namespace
}  // namespace gs
