// The live page in a real browser while a run goes on: an engine (scripted
// adapter, jobs held until released) reports to the page's state, its
// server serves it on loopback, and headless Chromium (Debian's chromium,
// scripts/install-deps.sh) loads it twice: after its scripts ran, the DOM
// names the operations, and the counts change between the two loads; the
// task stream has its lane labels and time axis. A screenshot is kept as a
// test artifact (GSRT_TEST_ARTIFACTS, default the build directory's
// test-artifacts/).
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <regex>

#include "gs/gs.h"
#include "runtime/base/process_spawn.h"
#include "runtime/dashboard/dashboard_server.h"
#include "runtime/dashboard/dashboard_state.h"
#include "runtime/engine/engine.h"
#include "tests/support/fake_adapter.h"
#include "tests/support/fake_operations.h"

namespace gs {
namespace {

namespace fs = std::filesystem;
using testing::FakeAdapter;
using testing::kConsume;
using testing::kProduce;

class DashboardBrowserTest : public ::testing::Test {
 protected:
  void SetUp() override {
    chromium_ = FindInPath("chromium");
    if (chromium_.empty()) {
      GTEST_FAIL() << "chromium is not installed; run scripts/install-deps.sh";
    }
    dir_ = fs::temp_directory_path() /
           ("gsrt-dashboard-browser-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Chromium's DOM of `url` after the page's scripts ran (or its
  // screenshot, with `screenshot`).
  std::string Browse(const std::string& url, const std::string& screenshot) {
    const fs::path profile = dir_ / ("profile-" + std::to_string(++loads_));
    fs::create_directories(profile);
    std::vector<std::string> argv = {
        chromium_, "--headless", "--no-sandbox", "--disable-gpu",
        "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run",
        "--user-data-dir=" + profile.string(),
        // The page keeps its event stream open, so the load never ends:
        // stop it after 15 s (a cold start on a loaded machine takes ~10 s
        // before the scripts ran and rendered) and dump.
        "--timeout=15000", "--window-size=1000,800"};
    argv.push_back(screenshot.empty() ? "--dump-dom"
                                      : "--screenshot=" + screenshot);
    argv.push_back(url);
    auto out = RunProgram(argv, 60);
    EXPECT_TRUE(out.ok()) << out.status().ToString();
    if (!out.ok()) return "";
    EXPECT_EQ(out->exit_code, 0) << out->err;
    return out->out;
  }

  std::string chromium_;
  fs::path dir_;
  int loads_ = 0;
};

// The number in the `done` cell of `op`'s row, -1 when the row is missing.
int DoneCount(const std::string& dom, const std::string& op) {
  std::smatch m;
  std::regex row("data-operation=\"" + op +
                 "\">(?:<td[^>]*>[^<]*</td>){3}<td class=\"done\">([0-9]+)<");
  if (!std::regex_search(dom, m, row)) return -1;
  return std::stoi(m[1]);
}

// The host row's cell of class `cls`, or "" when the page has none.
std::string HostCell(const std::string& dom, const std::string& cls) {
  std::smatch m;
  std::regex cell("data-host=\"[^\"]+\">.*?<td class=\"" + cls + "\">([^<]*)<");
  if (!std::regex_search(dom, m, cell)) return "";
  return m[1];
}

// The texts of the task stream's SVG elements of class `cls`, in order.
std::vector<std::string> StreamTexts(const std::string& dom,
                                     const std::string& cls) {
  std::vector<std::string> out;
  std::regex text("<text[^>]* class=\"" + cls + "\"[^>]*>([^<]*)</text>");
  for (std::sregex_iterator it(dom.begin(), dom.end(), text), end; it != end;
       ++it) {
    out.push_back((*it)[1]);
  }
  return out;
}

TEST_F(DashboardBrowserTest, ThePageShowsTheRunAsItGoes) {
  FakeAdapter::Log log;
  log.hold = true;
  auto state = std::make_shared<DashboardState>();
  EngineOptions options;
  options.cwd = dir_.string();
  options.work_dir = (dir_ / ".gsrt").string();
  options.observers.push_back(state);
  Engine engine(options);
  std::vector<HostSetup> hosts;
  hosts.push_back(HostSetup{"fake",
                            [&log](boost::asio::io_context& io, Clock& clock) {
                              return std::make_unique<FakeAdapter>(io, clock, 2,
                                                                   &log);
                            },
                            "/no/worker"});
  hosts.back().cores = 2;  // gsrt.yaml's `slots: 2`
  ASSERT_TRUE(engine.Start(std::move(hosts)).ok());
  DashboardOptions where;
  where.now = [&engine] { return engine.Now(); };
  auto server = DashboardServer::Start(state, where);
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  EXPECT_EQ((*server)->url().find("token"), std::string::npos)
      << "loopback needs no token";

  for (int i = 0; i < 4; ++i) {
    gs_arg args[2] = {};
    const std::string name = "f" + std::to_string(i);
    args[0].str = name.c_str();
    args[1].i = i;
    engine.Submit(&kProduce, args);
    const std::string out = "g" + std::to_string(i);
    args[1].str = out.c_str();
    engine.Submit(&kConsume, args);
  }
  ASSERT_TRUE(log.WaitRunning(2));
  const std::string before = Browse((*server)->url(), "");
  EXPECT_NE(before.find("data-operation=\"produce\""), std::string::npos)
      << before;
  EXPECT_NE(before.find("data-operation=\"consume\""), std::string::npos);
  EXPECT_EQ(DoneCount(before, "produce"), 0) << before;

  log.ReleaseAll();  // the run goes on
  engine.Barrier();  // every task ended; GS_Off not yet called
  const std::string after = Browse((*server)->url(), "");
  EXPECT_EQ(DoneCount(after, "produce"), 4) << after;
  EXPECT_EQ(DoneCount(after, "consume"), 4) << after;
  // The hosts table: distrust (nothing lost here) and the queue wait of the
  // attempts that ended, in seconds.
  EXPECT_EQ(HostCell(after, "distrust"), "0") << after;
  EXPECT_TRUE(std::regex_match(HostCell(after, "queue-wait"),
                               std::regex("[0-9.]+ s / [0-9.]+ s")))
      << after;
  // Running and queued on the host apart, beside its 2 slots (issue 36).
  EXPECT_EQ(HostCell(after, "running"), "0") << after;
  EXPECT_EQ(HostCell(after, "queued"), "0") << after;
  EXPECT_EQ(HostCell(after, "slots"), "2") << after;
  // The task stream: a label per lane, "host · slot k", no more lanes than
  // the host's 2 slots, and a time axis from 0 in seconds.
  const std::vector<std::string> lanes = StreamTexts(after, "lane-label");
  ASSERT_FALSE(lanes.empty()) << after;
  EXPECT_LE(lanes.size(), 2u);
  EXPECT_EQ(lanes[0], "fake \u00b7 slot 1") << after;
  const std::vector<std::string> ticks = StreamTexts(after, "tick");
  ASSERT_GE(ticks.size(), 2u) << after;
  EXPECT_TRUE(std::regex_match(ticks[0], std::regex("0(\\.0+)? s")))
      << ticks[0];
  for (const std::string& t : ticks) {
    EXPECT_TRUE(std::regex_match(t, std::regex("[0-9]+(\\.[0-9]+)? s"))) << t;
  }

  const char* artifacts = std::getenv("GSRT_TEST_ARTIFACTS");
  const fs::path shots =
      artifacts ? fs::path(artifacts) : fs::current_path() / "test-artifacts";
  fs::create_directories(shots);
  const std::string shot = (shots / "dashboard.png").string();
  Browse((*server)->url(), shot);
  EXPECT_GT(fs::exists(shot) ? fs::file_size(shot) : 0, 1000u) << shot;
  EXPECT_EQ(engine.Stop(), 0);
}

}  // namespace
}  // namespace gs
