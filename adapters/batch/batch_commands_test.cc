#include "adapters/batch/batch_commands.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace gs {
namespace {

using ::testing::HasSubstr;

// The commands through a runner that answers as the queue would.
BatchCommands WithAnswer(std::unique_ptr<BatchSystem> system, int exit_code,
                         std::string out, std::string err = "") {
  BatchCommands commands("h", std::move(system), BatchConfig(), "");
  commands.set_runner([=](const std::vector<std::string>&, Seconds) {
    ProgramOutput o;
    o.exit_code = exit_code;
    o.out = out;
    o.err = err;
    return StatusOr<ProgramOutput>(o);
  });
  return commands;
}

TEST(BatchCommandsTest, PbsListingOfAnEmptyQueueIsEmptyNotAFailure) {
  // Slurm's qstat wrapper exits 153, printing nothing, when no job is
  // queued: the adapter must still see its lost jobs gone.
  auto listed = WithAnswer(MakePbsSystem(), 153, "").List("gsrt-h-1");
  ASSERT_TRUE(listed.ok()) << listed.status().message();
  EXPECT_TRUE(listed->empty());
}

TEST(BatchCommandsTest, OtherListingFailuresStayFailures) {
  auto pbs = WithAnswer(MakePbsSystem(), 1, "", "qstat: cannot connect")
                 .List("gsrt-h-1");
  ASSERT_FALSE(pbs.ok());
  EXPECT_THAT(pbs.status().message(),
              HasSubstr("exited with code 1: qstat: cannot connect"));
  // squeue has no such code: 153 is a failure there.
  EXPECT_FALSE(WithAnswer(MakeSlurmSystem(), 153, "").List("gsrt-h-1").ok());
}

}  // namespace
}  // namespace gs
