#include "adapters/batch/pilot_record.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "runtime/base/shell_quote.h"
#include "tests/support/temp_dir.h"

namespace gs {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::Field;
using ::testing::UnorderedElementsAre;

std::string Script(const std::string& token_file, const std::string& name) {
  auto line = ShellCommandLine({"/opt/gsrt-agent", "--connect", "h:1",
                                "--token-file", token_file, "--pilot", name});
  return "#!/bin/sh\n# gsrt pilot " + name + "\nexec " + *line + "\n";
}

void Write(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path) << text;
}

TEST(PilotRecordTest, TextRoundTripsAndOddTextIsRefused) {
  PilotRecord r{"c-p3", "4711", "gsrt-pilot-c-0123abcd"};
  auto back = ParsePilotRecord("c-p3", PilotRecordText(r));
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->name, "c-p3");
  EXPECT_EQ(back->batch_id, "4711");
  EXPECT_EQ(back->job_name, "gsrt-pilot-c-0123abcd");
  EXPECT_FALSE(ParsePilotRecord("c-p3", "").has_value());
  EXPECT_FALSE(ParsePilotRecord("c-p3", "4711\n").has_value());
  EXPECT_FALSE(ParsePilotRecord("c-p3", "4711 name extra\n").has_value());
  EXPECT_FALSE(ParsePilotRecord("", "4711 name\n").has_value());
}

TEST(PilotRecordTest, AScriptReadsTheTokenFileItNamesAndNoOther) {
  const std::string s = Script("/w/pilots/token.m.100", "c-p0");
  EXPECT_TRUE(ScriptReadsTokenFile(s, "/w/pilots/token.m.100"));
  // A longer path that starts the same is another file.
  EXPECT_FALSE(ScriptReadsTokenFile(s, "/w/pilots/token.m.10"));
  EXPECT_FALSE(ScriptReadsTokenFile(s, "/w/pilots/token.m.1000"));
  // Quoted paths (a work dir with a space or a quote) are found as quoted.
  const std::string odd = "/w d/it's/token.m.7";
  EXPECT_TRUE(ScriptReadsTokenFile(Script(odd, "c-p1"), odd));
  EXPECT_FALSE(ScriptReadsTokenFile(Script(odd, "c-p1"), "/w d/it"));
}

TEST(PilotRecordTest, FindsTheRecordedPilotsOfTheGivenTokenFilesOnly) {
  TempDir dir;
  const std::string d = dir.path();
  const std::string dead = d + "/token.m.100";
  const std::string alive = d + "/token.m.200";
  Write(dir / "c-p0.sh", Script(dead, "c-p0"));  // dead master's, recorded
  ASSERT_TRUE(WritePilotRecord(d, {"c-p0", "11", "gsrt-pilot-c-aaaa"}).ok());
  Write(dir / "c-p1.sh", Script(dead, "c-p1"));   // killed before its id
  Write(dir / "c-p2.sh", Script(alive, "c-p2"));  // another master's
  ASSERT_TRUE(WritePilotRecord(d, {"c-p2", "12", "gsrt-pilot-c-bbbb"}).ok());
  Write(dir / "c-p3.sh", Script(dead, "c-p3"));
  Write(dir / "c-p3.id", "garbage\n");  // unreadable record: passed over
  EXPECT_THAT(
      PilotsReadingTokenFiles(d, {dead}),
      ElementsAre(AllOf(Field(&PilotRecord::name, "c-p0"),
                        Field(&PilotRecord::batch_id, "11"),
                        Field(&PilotRecord::job_name, "gsrt-pilot-c-aaaa"))));
  EXPECT_THAT(PilotsReadingTokenFiles(d, {dead, alive}),
              UnorderedElementsAre(Field(&PilotRecord::name, "c-p0"),
                                   Field(&PilotRecord::name, "c-p2")));
  EXPECT_TRUE(PilotsReadingTokenFiles(d, {}).empty());
  EXPECT_TRUE(PilotsReadingTokenFiles(d + "/missing", {dead}).empty());
  // Records are private, like the token files beside them.
  struct stat st {};
  ASSERT_EQ(::stat((dir / "c-p0.id").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 077, 0u);
}

TEST(PilotRecordTest, RemovingAPilotsFilesKeepsALostOnesOutputInFailed) {
  TempDir work;
  const std::string d = work.path() + "/pilots";
  std::filesystem::create_directories(d);
  for (const char* f : {"a.sh", "a.id", "a.out", "b.sh", "b.id", "b.out"}) {
    Write(d + "/" + f, f);
  }
  RemovePilotFiles(d, "a", "");
  RemovePilotFiles(d, "b", work.path());
  EXPECT_TRUE(std::filesystem::is_empty(d));
  std::vector<std::string> kept;
  for (const auto& e :
       std::filesystem::directory_iterator(work.path() + "/failed/batch")) {
    kept.push_back(e.path().filename().string());
  }
  EXPECT_THAT(kept, ElementsAre("b.out"));
}

}  // namespace
}  // namespace gs
