#include "runtime/engine/run_naming.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace gs {
namespace {

const gs_param_desc kCopyParams[] = {{"src", GS_TYPE_FILE, GS_DIR_IN},
                                     {"dst", GS_TYPE_FILE, GS_DIR_OUT}};
const gs_operation kCopy = {"copy", GS_TYPE_VOID, 2, kCopyParams, 0, 0, 0};

// copy(a.dat, b.dat) then copy(b.dat, out/c.dat), in /home/u/run; host 0
// keeps its own files.
class RunNamingTest : public ::testing::Test {
 protected:
  RunNamingTest() {
    auto host = std::make_unique<HostEntry>();
    host->name = "remote";
    host->shared = false;
    host->data_dir = "/scratch/data";
    hosts_.Add(std::move(host));
    places_.AddHost(false);
    const OpId op = ops_.Intern(&kCopy);
    FileParam first[] = {{"a.dat", true, false}, {"b.dat", false, true}};
    t0_ = graph_.AddTask(op, first, 2, "");
    FileParam second[] = {{"b.dat", true, false}, {"out/c.dat", false, true}};
    t1_ = graph_.AddTask(op, second, 2, "");
    vb_ = graph_.accesses(t0_)[1].out;
  }

  const std::string cwd_ = "/home/u/run";
  FileTable files_{cwd_};
  TaskGraph graph_{&files_};
  OperationTable ops_;
  HostSet hosts_{1};
  DataPlaces places_{cwd_ + "/.gsrt", files_, graph_, hosts_};
  RunNaming naming_{cwd_, files_, graph_, ops_, places_};
  TaskId t0_ = 0, t1_ = 0;
  VersionId vb_ = 0;
};

TEST_F(RunNamingTest, FilesAndCallsAreNamedAsTheProgramNamedThem) {
  EXPECT_EQ(naming_.UserNameOf(graph_.version(vb_).file), "b.dat");
  EXPECT_EQ(naming_.CallText(t0_), "copy(a.dat, b.dat)");
  EXPECT_EQ(naming_.CallText(t1_), "copy(b.dat, out/c.dat)");
}

TEST_F(RunNamingTest, AJobsErrorNamesItsFilesAsTheProgramDoes) {
  const std::string remote = places_.PathOn(vb_, 0);
  ASSERT_NE(remote.find("/scratch/data/"), std::string::npos);
  JobReport report;
  Exited exited;
  exited.error = "cannot write " + remote;
  report.outcome = exited;
  naming_.NameUserFiles(t0_, 0, {}, &report);
  const std::string& error = std::get<Exited>(report.outcome).error;
  EXPECT_EQ(error.find("/scratch/data/"), std::string::npos) << error;
  EXPECT_NE(error.find("b.dat"), std::string::npos) << error;
}

TEST_F(RunNamingTest, AReplicasOwnPathsAreNamedToo) {
  const std::string beside = places_.VersionPath(vb_) + ".replica9";
  JobReport report;
  HostFailed failed;
  failed.reason = "lost " + beside;
  report.outcome = failed;
  naming_.NameUserFiles(t0_, kNoHost, {{beside, places_.VersionPath(vb_)}},
                        &report);
  const std::string& reason = std::get<HostFailed>(report.outcome).reason;
  EXPECT_EQ(reason.find(".replica9"), std::string::npos) << reason;
  EXPECT_NE(reason.find("b.dat"), std::string::npos) << reason;
}

TEST_F(RunNamingTest, ACallNotRunNamesTheFailedTaskBehindIt) {
  std::vector<TaskId> futile;
  graph_.MarkFailed(t0_, &futile);
  ASSERT_EQ(futile, std::vector<TaskId>{t1_});
  const std::vector<TaskFailure> failures = {
      {t0_, "copy", "copy(a.dat, b.dat)", "exit 3", "", 1}};
  const SyncStop failed = naming_.SyncStopOf(t0_, failures);
  EXPECT_FALSE(failed.not_run);
  EXPECT_EQ(failed.error, "exit 3");
  EXPECT_EQ(failed.call, "copy(a.dat, b.dat)");
  const SyncStop not_run = naming_.SyncStopOf(t1_, failures);
  EXPECT_TRUE(not_run.not_run);
  EXPECT_EQ(not_run.operation, "copy");
  EXPECT_EQ(not_run.missing_file, "b.dat");
  EXPECT_EQ(not_run.cause_task, t0_);
  EXPECT_EQ(not_run.cause_operation, "copy");
}

}  // namespace
}  // namespace gs
