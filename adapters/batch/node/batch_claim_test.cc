#include "adapters/batch/node/batch_claim.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <thread>
#include <vector>

#include "adapters/batch/node/batch_job_runner.h"
#include "tests/support/temp_dir.h"

namespace gs {
namespace {

TEST(BatchClaimTest, FirstClaimWinsAndLaterOnesSeeItsOwner) {
  TempDir dir;
  auto first = ClaimBatchElement(dir.path(), 3, "12_3");
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_TRUE(std::holds_alternative<ClaimWon>(*first));
  auto second = ClaimBatchElement(dir.path(), 3, kVoidClaim);
  ASSERT_TRUE(second.ok());
  ASSERT_TRUE(std::holds_alternative<ClaimHeld>(*second));
  EXPECT_EQ(std::get<ClaimHeld>(*second).owner, "12_3");
  // Other elements are claimed apart.
  auto other = ClaimBatchElement(dir.path(), 4, kVoidClaim);
  ASSERT_TRUE(other.ok());
  EXPECT_TRUE(std::holds_alternative<ClaimWon>(*other));
  EXPECT_EQ(*ReadSmallFile(BatchClaimPath(dir.path(), 3)), "12_3");
  EXPECT_EQ(*ReadSmallFile(BatchClaimPath(dir.path(), 4)), kVoidClaim);
}

TEST(BatchClaimTest, ExactlyOneOfManyConcurrentClaimsWins) {
  TempDir dir;
  std::vector<std::string> owners = {"void", "7", "8_1", "9"};
  std::vector<StatusOr<ClaimOutcome>> outcomes(owners.size(),
                                               Status::Internal("not run"));
  std::vector<std::thread> threads;
  for (size_t i = 0; i < owners.size(); ++i) {
    threads.emplace_back(
        [&, i] { outcomes[i] = ClaimBatchElement(dir.path(), 0, owners[i]); });
  }
  for (auto& t : threads) t.join();
  int won = 0;
  std::string winner;
  for (size_t i = 0; i < owners.size(); ++i) {
    ASSERT_TRUE(outcomes[i].ok()) << outcomes[i].status().ToString();
    if (std::holds_alternative<ClaimWon>(*outcomes[i])) {
      ++won;
      winner = owners[i];
    }
  }
  ASSERT_EQ(won, 1);
  // Every loser read the winner whole.
  for (size_t i = 0; i < owners.size(); ++i) {
    if (auto* held = std::get_if<ClaimHeld>(&*outcomes[i]))
      EXPECT_EQ(held->owner, winner);
  }
}

TEST(BatchClaimTest, AMissingDirectoryIsAnErrorNamingThePath) {
  auto claim = ClaimBatchElement("/nonexistent-gsrt-dir", 0, "1");
  ASSERT_FALSE(claim.ok());
  EXPECT_NE(claim.status().message().find("/nonexistent-gsrt-dir"),
            std::string::npos);
}

TEST(BatchClaimTest, OwnBatchIdAsTheListingShowsIt) {
  auto from = [](std::map<std::string, std::string> env) {
    return OwnBatchId([env](const char* name) -> const char* {
      auto it = env.find(name);
      return it == env.end() ? nullptr : it->second.c_str();
    });
  };
  EXPECT_EQ(from({{"SLURM_JOB_ID", "40"},
                  {"SLURM_ARRAY_JOB_ID", "37"},
                  {"SLURM_ARRAY_TASK_ID", "3"}}),
            "37_3");
  EXPECT_EQ(from({{"SLURM_JOB_ID", "41"}}), "41");
  EXPECT_EQ(from({{"PBS_JOBID", "12.server"}}), "12.server");
  EXPECT_EQ(from({}), "");
}

}  // namespace
}  // namespace gs
