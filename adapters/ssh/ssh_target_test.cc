#include "adapters/ssh/ssh_target.h"

#include <gtest/gtest.h>

namespace gs {
namespace {

TEST(SshTargetTest, TakesTheSshKeysOfAConfigHost) {
  HostConfig h;
  h.name = "node1";
  h.address = "10.0.0.5";
  h.port = 2200;
  h.user = "alice";
  h.identity = "/k/id";
  h.known_hosts = "/k/known_hosts";
  h.host_key_check = HostKeyCheck::kAcceptNew;
  SshTarget t = SshTarget::FromHostConfig(h);
  EXPECT_EQ(t.name, "node1");
  EXPECT_EQ(t.address, "10.0.0.5");
  EXPECT_EQ(t.port, 2200);
  EXPECT_EQ(t.user, "alice");
  EXPECT_EQ(t.identity, "/k/id");
  EXPECT_EQ(t.known_hosts, "/k/known_hosts");
  EXPECT_EQ(t.host_key_check, HostKeyCheck::kAcceptNew);
  EXPECT_GT(t.connect_timeout, 0);
}

TEST(SshTargetTest, DescribesByNameAndAddress) {
  SshTarget t;
  t.address = "127.0.0.2";
  t.port = 2222;
  EXPECT_EQ(t.Describe(), "host 127.0.0.2:2222");
  t.name = "node1";
  EXPECT_EQ(t.Describe(), "host node1 (127.0.0.2:2222)");
}

}  // namespace
}  // namespace gs
