#include "adapters/ssh/known_hosts.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <libssh/libssh.h>

#include <string>

namespace gs {
namespace {

using ::testing::HasSubstr;

constexpr char kEd1[] =
    "ssh-ed25519 "
    "AAAAC3NzaC1lZDI1NTE5AAAAIJfoCHFlyh97vs0p2WVEof4+m07PQ4CT09G+XCxC7yXK";
constexpr char kEd2[] =
    "ssh-ed25519 "
    "AAAAC3NzaC1lZDI1NTE5AAAAIEVXwnTfY9Cjg8jXC3dMX/xENSPjyTLtNcP6K/7Bkw4d";
constexpr char kEcdsa[] =
    "ecdsa-sha2-nistp256 "
    "AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBHRaE2tBHVSPzoVFSVr"
    "pj2d3sURAOb6jtluUCzi6JtylvnNnomOYQpjpSY3vAcOApZOHwnQ8jkqT/yb3jqA1CCo=";
// "[127.0.0.9]:2222 kEd1", hashed by `ssh-keygen -H`.
constexpr char kHashed[] =
    "|1|6q7bbEjB26Zl7nTOAF/FiR+Mbxk=|wRLOBu1Yh9u6vUUkyVWYD34peDU=";

TEST(KnownHostsTest, NameHasBracketsOnlyForOtherPorts) {
  EXPECT_EQ(KnownHostsName("10.0.0.1", 22), "10.0.0.1");
  EXPECT_EQ(KnownHostsName("127.0.0.2", 2222), "[127.0.0.2]:2222");
}

TEST(KnownHostsTest, FindsPlainListedAndHashedLines) {
  const std::string text =
      std::string("# a comment\n") + "[127.0.0.2]:2222 " + kEd1 + "\n" + "\n" +
      "[127.0.0.3]:2222 " + kEd2 + "\n" + "other,[127.0.0.2]:2222 " + kEcdsa +
      " cmt\r\n" + "@revoked [127.0.0.2]:2222 " + kEd2 + "\n" +
      "[127.0.0.2]:2223 " + kEd2 + "\n" + kHashed + " " + kEd1;
  auto lines = FindKnownHostsLines(text, "[127.0.0.2]:2222");
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0].line, 2);
  EXPECT_EQ(lines[0].key_type, "ssh-ed25519");
  EXPECT_EQ(lines[1].line, 5);
  EXPECT_EQ(lines[1].key_type, "ecdsa-sha2-nistp256");

  auto hashed = FindKnownHostsLines(text, "[127.0.0.9]:2222");
  ASSERT_EQ(hashed.size(), 1u);
  EXPECT_EQ(hashed[0].line, 8);
  EXPECT_TRUE(FindKnownHostsLines(text, "[127.0.0.4]:2222").empty());
}

TEST(KnownHostsTest, StrictAcceptsOnlyKnownKeys) {
  const auto s = HostKeyCheck::kStrict;
  EXPECT_EQ(DecideHostKey(HostKeyState::kKnown, s), HostKeyAction::kAccept);
  EXPECT_EQ(DecideHostKey(HostKeyState::kUnknown, s), HostKeyAction::kRefuse);
  EXPECT_EQ(DecideHostKey(HostKeyState::kNoFile, s), HostKeyAction::kRefuse);
  EXPECT_EQ(DecideHostKey(HostKeyState::kChanged, s), HostKeyAction::kRefuse);
  EXPECT_EQ(DecideHostKey(HostKeyState::kOtherType, s), HostKeyAction::kRefuse);
  EXPECT_EQ(DecideHostKey(HostKeyState::kError, s), HostKeyAction::kRefuse);
}

TEST(KnownHostsTest, AcceptNewRecordsNewHostsButNeverChangedKeys) {
  const auto a = HostKeyCheck::kAcceptNew;
  EXPECT_EQ(DecideHostKey(HostKeyState::kKnown, a), HostKeyAction::kAccept);
  EXPECT_EQ(DecideHostKey(HostKeyState::kUnknown, a), HostKeyAction::kRecord);
  EXPECT_EQ(DecideHostKey(HostKeyState::kNoFile, a), HostKeyAction::kRecord);
  EXPECT_EQ(DecideHostKey(HostKeyState::kChanged, a), HostKeyAction::kRefuse);
  EXPECT_EQ(DecideHostKey(HostKeyState::kOtherType, a), HostKeyAction::kRefuse);
}

// A public key from "TYPE BASE64".
struct Key {
  explicit Key(std::string_view line) {
    const size_t space = line.find(' ');
    const std::string b64(line.substr(space + 1));
    const ssh_keytypes_e type =
        ssh_key_type_from_name(std::string(line.substr(0, space)).c_str());
    EXPECT_EQ(ssh_pki_import_pubkey_base64(b64.c_str(), type, &key), SSH_OK);
  }
  ~Key() { ssh_key_free(key); }
  ssh_key key = nullptr;
};

TEST(KnownHostsTest, ClassifiesTheOfferedKey) {
  const std::string name = "[127.0.0.2]:2222";
  const std::string same = name + " " + kEd1 + "\n";
  const std::string changed = "# old\n" + name + " " + kEd2 + "\n";
  const std::string other = name + " " + kEcdsa + "\n";
  const std::string both = changed + same;  // one line matches: known
  Key offered(kEd1);
  std::vector<KnownHostsLine> lines;
  EXPECT_EQ(ClassifyHostKey(same, name, offered.key, &lines),
            HostKeyState::kKnown);
  EXPECT_EQ(ClassifyHostKey(changed, name, offered.key, &lines),
            HostKeyState::kChanged);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].line, 2);
  EXPECT_EQ(ClassifyHostKey(other, name, offered.key, &lines),
            HostKeyState::kOtherType);
  EXPECT_EQ(ClassifyHostKey(both, name, offered.key, &lines),
            HostKeyState::kKnown);
  EXPECT_EQ(ClassifyHostKey(same, "[127.0.0.3]:2222", offered.key, &lines),
            HostKeyState::kUnknown);
  EXPECT_TRUE(lines.empty());
}

HostKeyFacts Facts() {
  HostKeyFacts f;
  f.host = "host node1 (127.0.0.2:2222)";
  f.address = "127.0.0.2";
  f.port = 2222;
  f.key_type = "ssh-ed25519";
  f.fingerprint = "SHA256:abc";
  f.known_hosts = "/k/known_hosts";
  return f;
}

TEST(KnownHostsTest, UnknownKeyMessageSaysHowToAddIt) {
  Status s =
      HostKeyRefusal(HostKeyState::kUnknown, HostKeyCheck::kStrict, Facts());
  EXPECT_EQ(s.code(), Status::Code::kPermissionDenied);
  EXPECT_THAT(s.message(), HasSubstr("host node1 (127.0.0.2:2222)"));
  EXPECT_THAT(s.message(), HasSubstr("ssh-ed25519 key SHA256:abc"));
  EXPECT_THAT(s.message(),
              HasSubstr("ssh-keyscan -p 2222 127.0.0.2 >> /k/known_hosts"));
  EXPECT_THAT(s.message(), HasSubstr("accept-new"));
}

TEST(KnownHostsTest, ChangedKeyMessageNamesTheOldLine) {
  HostKeyFacts f = Facts();
  f.lines = {{3, "ssh-ed25519"}};
  Status s =
      HostKeyRefusal(HostKeyState::kChanged, HostKeyCheck::kAcceptNew, f);
  EXPECT_EQ(s.code(), Status::Code::kPermissionDenied);
  EXPECT_THAT(s.message(), HasSubstr("CHANGED"));
  EXPECT_THAT(s.message(), HasSubstr("SHA256:abc"));
  EXPECT_THAT(s.message(),
              HasSubstr("remove the old line 3 of /k/known_hosts"));
  EXPECT_THAT(s.message(),
              HasSubstr("ssh-keygen -R '[127.0.0.2]:2222' -f /k/known_hosts"));
}

TEST(KnownHostsTest, OtherTypeMessageListsTheKnownTypes) {
  HostKeyFacts f = Facts();
  f.lines = {{1, "ssh-rsa"}, {4, "ecdsa-sha2-nistp256"}};
  Status s = HostKeyRefusal(HostKeyState::kOtherType, HostKeyCheck::kStrict, f);
  EXPECT_THAT(s.message(), HasSubstr("ssh-rsa (line 1)"));
  EXPECT_THAT(s.message(), HasSubstr("lines 1 and 4"));
  EXPECT_THAT(s.message(), HasSubstr("CHANGED"));
}

}  // namespace
}  // namespace gs
