#include "runtime/deploy/deploy_json.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "runtime/deploy/deploy_format.h"

namespace gs {
namespace {

// Two ranked hosts and one without enough memory.
RankReport Sample() {
  std::vector<HostConfig> configs(3);
  const char* names[] = {"a", "b", "c"};
  for (int i = 0; i < 3; ++i) {
    configs[i].name = names[i];
    configs[i].adapters = {AdapterKind::kLocal};
  }
  RankInputs in;
  in.reliability = {{"a", 4, 1, 0}, {"b", 4, 0, 2}};
  HostProbeRecord pa;
  pa.host = "a";
  pa.time = 1714566615;
  pa.rtt = 0.001;
  pa.cores = 4;
  pa.memory_total = 8e9;
  pa.memory_available = 4e9;
  pa.load1 = 0;
  HostProbeRecord pc = pa;
  pc.host = "c";
  pc.memory_available = 1e9;
  in.probes = {pa, pc};
  in.exec_times = {{"op", "a", 10, 5}, {"op", "b", 20, 5}};
  RankRequest q;
  q.operation = "op";
  q.required_memory = 2e9;
  q.weights = {1, 2, 1, 1};
  std::vector<const HostConfig*> hosts;
  for (const HostConfig& h : configs) hosts.push_back(&h);
  return AssembleRanking(hosts, in, q);  // copies what it keeps
}

TEST(DeployJsonTest, SchemaFieldsAndValues) {
  const RankReport report = Sample();
  auto j = nlohmann::json::parse(RankReportJson(report, "/h.db"));
  EXPECT_EQ(j["schema"], "gsdeploy-rank/1");
  EXPECT_EQ(j["history"], "/h.db");
  EXPECT_EQ(j["operation"], "op");
  EXPECT_EQ(j["weights"]["beta"], 2.0);
  EXPECT_EQ(j["required_memory"], 2000000000);
  ASSERT_EQ(j["hosts"].size(), 3u);
  // a: ET 10 < b: 20, so prank a 2, b 1; rrank b (4/4) 2, a (3/4) 1.
  // grank a = 1 + 2*2 = 5, b = 2 + 2*1 = 4.
  const auto& a = j["hosts"][0];
  EXPECT_EQ(a["name"], "a");
  EXPECT_EQ(a["position"], 1);
  EXPECT_EQ(a["eligible"], true);
  EXPECT_EQ(a["availability"], 0.75);
  EXPECT_EQ(a["checks"], 4);
  EXPECT_EQ(a["not_answered"], 1);
  EXPECT_EQ(a["et"], 10.0);
  EXPECT_EQ(a["et_basis"], "this_host");
  EXPECT_EQ(a["probed_at"], "2024-05-01T12:30:15Z");
  EXPECT_EQ(a["grank"], 5.0);
  EXPECT_EQ(a["delta_source"], "load");
  EXPECT_TRUE(a["reason"].is_null());
  const auto& b = j["hosts"][1];
  EXPECT_EQ(b["name"], "b");
  EXPECT_EQ(b["distrust"], 2);
  EXPECT_TRUE(b["free_memory"].is_null());
  EXPECT_TRUE(b["probed_at"].is_null());
  EXPECT_EQ(b["grank"], 4.0);
  const auto& c = j["hosts"][2];
  EXPECT_EQ(c["eligible"], false);
  EXPECT_TRUE(c["position"].is_null());
  EXPECT_TRUE(c["grank"].is_null());
  EXPECT_NE(c["reason"].get<std::string>().find("not enough free memory"),
            std::string::npos);
  EXPECT_TRUE(j["notes"].is_array());
}

TEST(DeployFormatTest, RankTableBestFirstThenIneligible) {
  const std::string text = FormatRankReport(Sample());
  const size_t a = text.find("\n1  a ");
  const size_t b = text.find("\n2  b ");
  ASSERT_NE(a, std::string::npos) << text;
  ASSERT_NE(b, std::string::npos) << text;
  EXPECT_LT(a, b);
  EXPECT_NE(text.find("Ineligible:\n  c: not enough free memory"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("0.75 (3/4)"), std::string::npos) << text;
}

TEST(DeployFormatTest, TableColumnsAreAligned) {
  TextTable t({"A", "LONG HEADER", "C"});
  t.Add({"wide cell", "x", "y"});
  EXPECT_EQ(t.Render(),
            "A          LONG HEADER  C\n"
            "wide cell  x            y\n");
}

}  // namespace
}  // namespace gs
