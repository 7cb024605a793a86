#include "sim/instances/stg_graph.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>
#include <sstream>
#include <string>

#ifndef GSRT_SIM_DATA
#error "GSRT_SIM_DATA must name the data directory, sim/data (CMake sets it)"
#endif

namespace gs {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;

const std::string kStgDir = std::string(GSRT_SIM_DATA) + "/stg";

// The STG files, sorted; fails the test (not skips) when the data is gone.
std::vector<std::string> StgFiles() {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& e :
       std::filesystem::directory_iterator(kStgDir + "/50", ec)) {
    if (e.path().extension() == ".stg") files.push_back(e.path().string());
  }
  std::sort(files.begin(), files.end());
  EXPECT_FALSE(files.empty())
      << "no .stg files in " << kStgDir << "/50 (GSRT_SIM_DATA, set in "
      << "sim/CMakeLists.txt): restore sim/data from git";
  return files;
}

// The value after ':' of the comment whose key is `key` ("CP Length").
std::string Comment(const StgGraph& g, const std::string& key) {
  for (const std::string& c : g.comments) {
    size_t colon = c.find(':');
    if (colon == std::string::npos) continue;
    std::string k = c.substr(0, colon);
    k.erase(0, k.find_first_not_of(' '));
    k.erase(k.find_last_not_of(' ') + 1);
    if (k == key) {
      std::string v = c.substr(colon + 1);
      v.erase(0, v.find_first_not_of(' '));
      return v;
    }
  }
  return "";
}

TEST(StgGraphTest, LoadsTheFirstRandomGraph) {
  StatusOr<StgGraph> g = LoadStgFile(kStgDir + "/50/rand0000.stg");
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  EXPECT_EQ(g->num_real_tasks(), 50u);
  ASSERT_EQ(g->tasks.size(), 52u);
  EXPECT_EQ(g->exit(), 51u);
  EXPECT_TRUE(g->is_dummy(0));
  EXPECT_TRUE(g->is_dummy(51));
  EXPECT_FALSE(g->is_dummy(1));
  // "10  2  3  2 6 8" and "51 0 11 3 17 31 34 38 42 43 45 48 49 50".
  EXPECT_EQ(g->tasks[10].processing_time, 2u);
  EXPECT_THAT(g->tasks[10].preds, ElementsAre(2u, 6u, 8u));
  EXPECT_EQ(g->tasks[51].preds.size(), 11u);
  EXPECT_EQ(g->tasks[0].preds.size(), 0u);
  EXPECT_EQ(Comment(*g, "CP Length"), "55");
  EXPECT_EQ(StgCriticalPathLength(*g), 55u);
  std::vector<uint32_t> level = StgLevels(*g);
  EXPECT_EQ(level[0], 0u);
  EXPECT_EQ(level[1], 1u);   // preds {0}
  EXPECT_EQ(level[6], 3u);   // 0 -> 1 -> 5 -> 6
  EXPECT_EQ(level[10], 5u);  // via 8 (0 -> 1 -> 5 -> 6 -> 8)
  std::vector<std::vector<uint32_t>> succ = StgSuccessors(*g);
  EXPECT_THAT(succ[5], ElementsAre(6u, 26u));
}

// Every file agrees with the statistics its generator wrote in the comments,
// and with the optimal makespans the set publishes.
TEST(StgGraphTest, AllFilesMatchTheirStatedStatistics) {
  std::vector<std::string> files = StgFiles();
  EXPECT_EQ(files.size(), 180u);
  std::map<std::string, uint64_t> cp_of;  // "50/randNNNN.stg" -> CP
  std::map<std::string, uint64_t> work_of;
  for (const std::string& path : files) {
    SCOPED_TRACE(path);
    StatusOr<StgGraph> g = LoadStgFile(path);
    ASSERT_TRUE(g.ok()) << g.status().ToString();
    EXPECT_EQ(Comment(*g, "Tasks"), "50 (+dummy tasks : 2)");
    EXPECT_EQ(g->num_real_tasks(), 50u);
    uint64_t cp = StgCriticalPathLength(*g);
    EXPECT_EQ(std::to_string(cp), Comment(*g, "CP Length"));
    // "Edges : 96 / 1225 (+dummy edges : 23)".
    size_t real_edges = 0, dummy_edges = 0;
    for (uint32_t id = 0; id < g->tasks.size(); ++id) {
      for (uint32_t p : g->tasks[id].preds) {
        (g->is_dummy(id) || g->is_dummy(p) ? dummy_edges : real_edges)++;
      }
    }
    std::istringstream edges(Comment(*g, "Edges"));
    size_t stated_real = 0, stated_dummy = 0;
    std::string slash, total, dummy_word, edges_word, colon;
    edges >> stated_real >> slash >> total >> dummy_word >> edges_word >>
        colon >> stated_dummy;
    EXPECT_EQ(real_edges, stated_real);
    EXPECT_EQ(dummy_edges, stated_dummy);
    // Layered graphs: a path of real tasks crosses each layer at most once.
    std::string layers = Comment(*g, "Layers");
    if (!layers.empty()) {
      std::vector<uint32_t> level = StgLevels(*g);
      uint32_t deepest = *std::max_element(level.begin(), level.end() - 1);
      EXPECT_LE(deepest, std::stoul(layers));
      EXPECT_EQ(level.back(), deepest + 1);
    }
    uint64_t work = 0;
    for (const StgTask& t : g->tasks) work += t.processing_time;
    std::string key = "50/" + std::filesystem::path(path).filename().string();
    cp_of[key] = cp;
    work_of[key] = work;
  }
  // Optimal makespans on P processors are bounded below by the critical path
  // and by the work spread evenly.
  for (int p : {2, 4, 8, 16}) {
    std::string csv = kStgDir + "/opt/Case50_" + std::to_string(p) + "_OPT.csv";
    std::ifstream in(csv);
    ASSERT_TRUE(in) << "cannot read " << csv;
    std::string line;
    int rows = 0;
    while (std::getline(in, line)) {
      if (line.empty()) continue;
      std::istringstream fields(line);
      std::string file, procs, opt;
      std::getline(fields, file, ',');
      std::getline(fields, procs, ',');
      std::getline(fields, opt, ',');
      ASSERT_TRUE(cp_of.count(file)) << csv << ": unknown graph " << file;
      uint64_t makespan = std::stoull(opt);
      EXPECT_GE(makespan, cp_of[file]) << file << " P=" << p;
      EXPECT_GE(makespan * p, work_of[file]) << file << " P=" << p;
      ++rows;
    }
    EXPECT_EQ(rows, 180) << csv;
  }
}

TEST(StgGraphTest, ParsesInlineTextWithCommentsAndBlankLines) {
  // A diamond: 1 -> {2, 3} -> 4 between the dummies.
  StatusOr<StgGraph> g = ParseStg(
      "4\n"
      "0 0 0\n"
      "1 3 1 0\n"
      "\n"
      "2 2 1 1\r\n"
      "3\t5 1 1\n"
      "4 1 2 2 3\n"
      "5 0 1 4\n"
      "# CP Length : 9\n",
      "diamond.stg");
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  EXPECT_EQ(g->num_real_tasks(), 4u);
  EXPECT_EQ(StgCriticalPathLength(*g), 9u);
  EXPECT_THAT(StgLevels(*g), ElementsAre(0u, 1u, 2u, 2u, 3u, 4u));
  EXPECT_EQ(Comment(*g, "CP Length"), "9");
}

struct BadCase {
  const char* text;
  const char* error;  // expected message prefix after "bad.stg:"
};

TEST(StgGraphTest, RejectsMalformedInputNamingTheLine) {
  const BadCase cases[] = {
      {"", "1: no graph"},
      {"# only a comment\n", "1: no graph"},
      {"x\n", "1: expected number of tasks"},
      {"2 3\n", "1: expected the number of tasks alone"},
      {"0\n", "1: the graph has no task"},
      {"99999999999999999999999\n", "1: number of tasks '9"},
      {"1\n0 0 0\n2 1 1 0\n", "3: expected task id 1"},
      {"1\n0 0 0\n1 -4 1 0\n", "3: expected processing time"},
      {"1\n0 0 0\n1 4 2 0\n2 0 1 1\n", "3: task 1 declares 2 predecessor(s)"},
      {"1\n0 0 0\n1 4\n", "3: expected 'id processing_time"},
      {"1\n0 0 0\n1 4 1 7\n2 0 1 1\n", "3: task 1 names predecessor 7"},
      {"1\n0 0 0\n1 4 1 1\n2 0 1 1\n", "3: task 1 names itself"},
      {"1\n0 0 0\n1 4 1 2\n2 0 1 1\n", "3: task 1 names the dummy exit"},
      {"1\n0 0 0\n1 4 2 0 0\n2 0 1 1\n", "3: task 1 lists predecessor 0 twice"},
      {"1\n0 5 0\n1 4 1 0\n2 0 1 1\n", "2: dummy entry task 0 must have"},
      {"1\n0 0 0\n1 4 1 0\n2 3 1 1\n", "4: dummy exit task 2 must have"},
      {"1\n0 0 1 1\n1 4 1 0\n2 0 1 1\n",
       "2: the dummy entry task 0 must have "
       "no predecessors"},
      {"1\n0 0 0\n1 4 0\n2 0 1 1\n", "3: task 1 has no predecessor"},
      {"2\n0 0 0\n1 4 1 0\n2 4 1 0\n3 0 1 1\n", "4: task 2 has no successor"},
      {"1\n0 0 0\n1 4 1 0\n", "3: the file ends after 2 task lines"},
      {"1\n0 0 0\n1 4 1 0\n2 0 1 1\n3 0 0\n", "5: unexpected content"},
      {"3\n0 0 0\n1 1 2 0 3\n2 1 1 1\n3 1 1 2\n4 0 1 3\n",
       "3: task 1 is on or behind a cycle"},
  };
  for (const BadCase& c : cases) {
    StatusOr<StgGraph> g = ParseStg(c.text, "bad.stg");
    ASSERT_FALSE(g.ok()) << "accepted: " << c.text;
    EXPECT_EQ(g.status().code(), Status::Code::kInvalidArgument);
    EXPECT_THAT(g.status().message(),
                StartsWith(std::string("bad.stg:") + c.error))
        << "input: " << c.text;
  }
}

TEST(StgGraphTest, MissingFileNamesThePath) {
  StatusOr<StgGraph> g = LoadStgFile(kStgDir + "/no/such.stg");
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.status().ToString(), HasSubstr("no/such.stg"));
}

}  // namespace
}  // namespace gs
