#include "adapters/batch/batch_adapter.h"

#include <gtest/gtest.h>

namespace gs {
namespace {

BatchAdapterOptions Options(BatchMode mode, bool shared_fs) {
  BatchAdapterOptions o;
  o.host.name = "cluster";
  o.host.adapters = {AdapterKind::kSlurm};
  o.host.workdir = "/scratch/u/gsrt";
  o.host.shared_fs = shared_fs;
  o.host.batch.mode = mode;
  o.where = "gsrt.yaml:7:5: ";
  return o;
}

// Job mode stages nothing (its adapter says the host shares the master's
// files): without `shared_fs` it is refused at connect, naming the host,
// the key and what to do, instead of running as if files were there.
TEST(CheckBatchOptionsTest, JobModeWithoutSharedFilesIsRefused) {
  Status s = CheckBatchOptions(Options(BatchMode::kJob, false));
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
  const std::string& m = s.message();
  EXPECT_EQ(m.rfind("gsrt.yaml:7:5: host 'cluster': `mode: job`", 0), 0u) << m;
  EXPECT_NE(m.find("needs `shared_fs: true`"), std::string::npos) << m;
  EXPECT_NE(m.find("`mode: pilot`"), std::string::npos) << m;

  BatchAdapterOptions pbs = Options(BatchMode::kJob, false);
  pbs.host.adapters = {AdapterKind::kPbs};
  EXPECT_FALSE(CheckBatchOptions(pbs).ok());
}

TEST(CheckBatchOptionsTest, JobModeOnSharedFilesAndPilotModeAreAccepted) {
  EXPECT_TRUE(CheckBatchOptions(Options(BatchMode::kJob, true)).ok());
  // Pilots stage through their agents.
  EXPECT_TRUE(CheckBatchOptions(Options(BatchMode::kPilot, false)).ok());
  EXPECT_TRUE(CheckBatchOptions(Options(BatchMode::kPilot, true)).ok());
}

TEST(CheckBatchOptionsTest, ViaNeedsAnAbsoluteWorkdir) {
  BatchAdapterOptions o = Options(BatchMode::kPilot, true);
  o.host.batch.via = "login";
  o.login.name = "login";
  EXPECT_TRUE(CheckBatchOptions(o).ok());
  o.host.workdir = "gsrt";
  Status s = CheckBatchOptions(o);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("set `workdir:` to an absolute"),
            std::string::npos)
      << s.message();
}

}  // namespace
}  // namespace gs
