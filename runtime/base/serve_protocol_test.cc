#include "runtime/base/serve_protocol.h"

#include <gtest/gtest.h>

#include <cstring>

namespace gs {
namespace {

TEST(ServeProtocolTest, RequestRoundTripsWithAwkwardValues) {
  ServeRequest in;
  in.cwd = "/work/jobs/7";
  in.env = {"OMP_NUM_THREADS=2", "EMPTY=", "X=a=b c;$d\nnext"};
  in.args = {"run", "op", "/work/jobs/7/result", "", "with space", "'\"$x"};
  auto frame = EncodeServeRequest(in);
  ASSERT_TRUE(frame.ok()) << frame.status().message();
  auto length = DecodeServeHeader(frame->data());
  ASSERT_TRUE(length.ok());
  ASSERT_EQ(*length, frame->size() - kServeHeaderBytes);
  ServeRequest out;
  ASSERT_TRUE(DecodeServeRequest(
                  std::string_view(*frame).substr(kServeHeaderBytes), &out)
                  .ok());
  EXPECT_EQ(out.cwd, in.cwd);
  EXPECT_EQ(out.env, in.env);
  EXPECT_EQ(out.args, in.args);
}

TEST(ServeProtocolTest, RefusesNulBytesAndEntriesWithoutEquals) {
  ServeRequest nul;
  nul.cwd = "/w";
  nul.args = {"run", std::string("a\0b", 3)};
  EXPECT_FALSE(EncodeServeRequest(nul).ok());
  ServeRequest no_equals;
  no_equals.cwd = "/w";
  no_equals.env = {"JUSTANAME"};
  EXPECT_FALSE(EncodeServeRequest(no_equals).ok());
}

TEST(ServeProtocolTest, MalformedPayloadsAreErrors) {
  ServeRequest out;
  EXPECT_FALSE(DecodeServeRequest("", &out).ok());
  EXPECT_FALSE(DecodeServeRequest(std::string_view("/w\0x\0", 5), &out).ok());
  EXPECT_FALSE(DecodeServeRequest(std::string_view("/w\0"
                                                   "9\0",
                                                   5),
                                  &out)
                   .ok());
  EXPECT_FALSE(DecodeServeRequest(std::string_view("/w\0"
                                                   "1\0NOEQ\0",
                                                   10),
                                  &out)
                   .ok());
  EXPECT_FALSE(DecodeServeRequest(std::string_view("/w\0"
                                                   "0\0run\0tail",
                                                   13),
                                  &out)
                   .ok());
  const uint32_t huge = kMaxServeRequestBytes + 1;
  char header[kServeHeaderBytes];
  std::memcpy(header, &huge, sizeof huge);
  EXPECT_FALSE(DecodeServeHeader(header).ok());
}

TEST(ServeProtocolTest, ReplyRoundTrips) {
  ServeReply in{.code = -7,
                .user_us = 1234567890123,
                .system_us = 42,
                .max_rss_kb = 1 << 20,
                .result_bytes = 17,
                .stdout_bytes = int64_t{5} << 33,
                .stderr_bytes = 3,
                .other_files = 2};
  char bytes[kServeReplyBytes];
  EncodeServeReply(in, bytes);
  ServeReply out = DecodeServeReply(bytes);
  EXPECT_EQ(out.code, in.code);
  EXPECT_EQ(out.user_us, in.user_us);
  EXPECT_EQ(out.system_us, in.system_us);
  EXPECT_EQ(out.max_rss_kb, in.max_rss_kb);
  EXPECT_EQ(out.result_bytes, in.result_bytes);
  EXPECT_EQ(out.stdout_bytes, in.stdout_bytes);
  EXPECT_EQ(out.stderr_bytes, in.stderr_bytes);
  EXPECT_EQ(out.other_files, 2);
  // The defaults: no result, a sandbox to look at.
  EncodeServeReply(ServeReply{}, bytes);
  out = DecodeServeReply(bytes);
  EXPECT_EQ(out.result_bytes, -1);
  EXPECT_EQ(out.other_files, -1);
}

}  // namespace
}  // namespace gs
