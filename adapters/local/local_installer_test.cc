#include "adapters/local/local_installer.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include "tests/support/temp_dir.h"
#include "tests/support/test_files.h"

namespace gs {
namespace {

class LocalInstallerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    WriteProgram("0.1");
    installer_ = MakeLocalInstaller(10);
  }
  // A program answering --version with `version`.
  void WriteProgram(const std::string& version) {
    WriteText(local_, "#!/bin/sh\necho 'prog " + version + "'\n");
    ::chmod(local_.c_str(), 0755);
  }

  TempDir dir_;
  std::string local_ = dir_ / "prog";
  std::string there_ = dir_ / "host/bin/prog";
  std::unique_ptr<HostInstaller> installer_;
};

TEST_F(LocalInstallerTest, CopiesOnlyWhenTheBytesDiffer) {
  auto first = installer_->Install(local_, there_);
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_TRUE(first->uploaded);
  EXPECT_EQ(first->version, "prog 0.1");
  EXPECT_EQ(ReadText(there_), ReadText(local_));
  struct stat st;
  ASSERT_EQ(::stat(there_.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0755u);
  EXPECT_FALSE(Exists(there_ + ".gsrt-part"));

  auto again = installer_->Install(local_, there_);
  ASSERT_TRUE(again.ok());
  EXPECT_FALSE(again->uploaded);

  WriteProgram("0.2");
  auto changed = installer_->Install(local_, there_);
  ASSERT_TRUE(changed.ok());
  EXPECT_TRUE(changed->uploaded);
  EXPECT_EQ(changed->version, "prog 0.2");
}

TEST_F(LocalInstallerTest, AMissingProgramIsNamed) {
  auto install = installer_->Install(dir_ / "absent", there_);
  ASSERT_FALSE(install.ok());
  EXPECT_NE(install.status().message().find(dir_ / "absent"),
            std::string::npos);
  auto check = installer_->Check(dir_ / "absent");
  ASSERT_FALSE(check.ok());
  EXPECT_EQ(check.status().code(), Status::Code::kNotFound);
}

}  // namespace
}  // namespace gs
