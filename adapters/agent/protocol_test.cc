#include "adapters/agent/protocol.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace gs::agent {
namespace {

using ::testing::HasSubstr;

JobSpec OddSpec() {
  JobSpec s;
  s.id = 0xFFFFFFFFFFFFull + 7;
  s.task = 4000000000u;
  s.operation = "multiply";
  s.worker = "/opt/app/bin/app-worker";
  s.timeout = 12.5;
  JobParam scalar;
  scalar.kind = JobParam::Kind::kScalar;
  scalar.value = std::string("a\0b\n$(id) 'q' \xff", 16);  // any byte at all
  JobParam in;
  in.kind = JobParam::Kind::kFileIn;
  in.source = "/data/in file.txt";
  JobParam inout;
  inout.kind = JobParam::Kind::kFileInOut;
  inout.source = "v0";
  inout.dest = "v1";
  JobParam out;
  out.kind = JobParam::Kind::kOutScalar;
  s.params = {scalar, in, inout, out};
  return s;
}

// One message of every type, with fields that are not defaults.
std::vector<Message> AllMessages() {
  Hello hello;
  hello.software = "gsrt-agent 0.1.0";
  hello.host_name = "node-7";
  hello.work_dir = "/scratch/gsrt";
  hello.slots = 48;
  hello.cores = 64;
  hello.memory_total = 256ull << 30;
  hello.memory_available = 200ull << 30;
  hello.load1 = 3.25;
  hello.pid = 4242;
  hello.gpus = 4;

  JobReport exited;
  exited.id = 9;
  exited.submitted = 1.5;
  exited.started = 2.25;
  exited.ended = 1e9 + 0.125;
  Exited e;
  e.code = -3;
  e.results = "42\n0x1.8p+1\n";
  e.usage = {1.5, 0.25, 123456789012};
  e.bytes_in = 1ull << 40;
  e.bytes_out = 77;
  e.error = "exit code 3";
  e.log_dir = "/w/jobs/9";
  exited.outcome = e;
  JobReport failed;
  failed.id = 10;
  failed.outcome = HostFailed{"disk on fire"};
  JobReport timed;
  timed.id = 11;
  timed.outcome = TimedOut{0.3, "/w/failed/s/task-3-op-job-11"};
  JobReport cancelled;
  cancelled.id = 12;
  cancelled.outcome = Cancelled{};

  return {hello,
          RunJob{OddSpec()},
          Cancel{77},
          Heartbeat{5},
          HeartbeatAck{5, 3, 0.5},
          JobFinished{exited},
          JobFinished{failed},
          JobFinished{timed},
          JobFinished{cancelled},
          PutBegin{1, "data/a b.txt", 5 << 20},
          PutChunk{1, std::string(1000, '\0') + "tail"},
          PutEnd{1, 5 << 20, 0xDEADBEEFCAFEull},
          PutDone{1},
          GetRequest{2, "/w/x"},
          GetRequest{4, "/w/failed/s/task-1-op-job-4/stderr", 65537},
          GetChunk{2, "bytes"},
          GetEnd{2, 5, 99},
          Remove{"/w/old"},
          Error{3, Status::Code::kPermissionDenied, "no"},
          Shutdown{},
          Sweep{"node1:/home/u/.gsrt", {"3-C.dat", "12-odd name\n"}},
          Sweep{}};
}

// Messages compare equal when they encode the same.
void ExpectSame(const Message& a, const Message& b) {
  EXPECT_EQ(TypeOf(a), TypeOf(b));
  EXPECT_EQ(Encode(a), Encode(b)) << TypeName(TypeOf(a));
}

std::vector<Message> DecodeAll(FrameDecoder& d) {
  std::vector<Message> out;
  while (true) {
    auto next = d.Next();
    EXPECT_TRUE(next.ok()) << next.status().ToString();
    if (!next.ok() || !next->has_value()) return out;
    out.push_back(std::move(**next));
  }
}

TEST(ProtocolTest, EveryMessageRoundTrips) {
  for (const Message& m : AllMessages()) {
    FrameDecoder d;
    d.Append(Encode(m));
    auto got = DecodeAll(d);
    ASSERT_EQ(got.size(), 1u) << TypeName(TypeOf(m));
    ExpectSame(m, got[0]);
    EXPECT_EQ(d.buffered(), 0u);
  }
}

TEST(ProtocolTest, FieldsSurviveExactly) {
  FrameDecoder d;
  d.Append(Encode(RunJob{OddSpec()}));
  auto got = DecodeAll(d);
  ASSERT_EQ(got.size(), 1u);
  const JobSpec& s = std::get<RunJob>(got[0]).spec;
  const JobSpec want = OddSpec();
  EXPECT_EQ(s.id, want.id);
  EXPECT_EQ(s.task, want.task);
  EXPECT_EQ(s.params.size(), 4u);
  EXPECT_EQ(s.params[0].value, want.params[0].value);
  EXPECT_EQ(s.params[2].kind, JobParam::Kind::kFileInOut);
  EXPECT_EQ(s.timeout, 12.5);
}

// 2.5: a job's environment (its GPUs) rides at the end of RUN_JOB, only
// when it has one, so a job without is the frame every 2.x agent reads.
TEST(ProtocolTest, RunJobCarriesItsEnvironmentOnlyWhenItHasOne) {
  JobSpec plain = OddSpec();
  JobSpec gpu = OddSpec();
  gpu.env = {"CUDA_VISIBLE_DEVICES=1,2", "GSRT_GPUS=1,2"};
  const std::string without = Encode(RunJob{plain});
  const std::string with = Encode(RunJob{gpu});
  EXPECT_EQ(with.size(), without.size() + 4 + (4 + 24) + (4 + 13));
  FrameDecoder d;
  d.Append(with);
  d.Append(without);
  auto got = DecodeAll(d);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(std::get<RunJob>(got[0]).spec.env, gpu.env);
  EXPECT_TRUE(std::get<RunJob>(got[1]).spec.env.empty());
}

// 2.6: a job holding GPUs that names none asks the agent to name its
// own; the agent's HELLO says how many it hands out.
TEST(ProtocolTest, GpusTravelInRunJobAndHello) {
  JobSpec counted = OddSpec();
  counted.gpus = 2;
  JobSpec both = OddSpec();
  both.gpus = 1;
  both.env = {"A=b"};
  Hello hello;
  hello.gpus = 3;
  FrameDecoder d;
  d.Append(Encode(RunJob{counted}));
  d.Append(Encode(RunJob{both}));
  d.Append(Encode(hello));
  auto got = DecodeAll(d);
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(std::get<RunJob>(got[0]).spec.gpus, 2);
  EXPECT_TRUE(std::get<RunJob>(got[0]).spec.env.empty());
  EXPECT_EQ(std::get<RunJob>(got[1]).spec.gpus, 1);
  EXPECT_EQ(std::get<RunJob>(got[1]).spec.env, both.env);
  EXPECT_EQ(std::get<Hello>(got[2]).gpus, 3u);
}

TEST(ProtocolTest, GetRequestCarriesItsTailOnlyWhenAsked) {
  // Without a tail the frame is 2.3's, which older agents read.
  EXPECT_EQ(Encode(GetRequest{2, "/w/x"}).size(), 4u + 1 + 8 + 4 + 4);
  FrameDecoder d;
  d.Append(Encode(GetRequest{3, "/w/y", 65537}));
  auto got = DecodeAll(d);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(std::get<GetRequest>(got[0]).tail, 65537u);
}

TEST(ProtocolTest, FrameLayoutIsLengthTypePayload) {
  const std::string frame = Encode(Cancel{0x0102030405060708ull});
  ASSERT_EQ(frame.size(), 4u + 1u + 8u);
  EXPECT_EQ(frame.substr(0, 4), std::string("\x09\x00\x00\x00", 4));
  EXPECT_EQ(frame[4], static_cast<char>(MessageType::kCancel));
  EXPECT_EQ(frame.substr(5), "\x08\x07\x06\x05\x04\x03\x02\x01");
}

TEST(ProtocolTest, RandomSplitsDecodeTheSameMessages) {
  std::string stream;
  const auto all = AllMessages();
  for (int rep = 0; rep < 5; ++rep) {
    for (const Message& m : all) AppendFrame(m, &stream);
  }
  std::mt19937 rng(12345);
  for (int trial = 0; trial < 200; ++trial) {
    FrameDecoder d;
    std::vector<Message> got;
    size_t pos = 0;
    while (pos < stream.size()) {
      // Mostly tiny slices (frames split inside the length field), some big.
      const size_t n = std::min<size_t>(
          stream.size() - pos, rng() % 4 == 0 ? rng() % 5000 : rng() % 7);
      d.Append(std::string_view(stream).substr(pos, n));
      pos += n;
      for (Message& m : DecodeAll(d)) got.push_back(std::move(m));
    }
    ASSERT_EQ(got.size(), all.size() * 5) << "trial " << trial;
    for (size_t i = 0; i < got.size(); ++i) {
      ASSERT_EQ(Encode(got[i]), Encode(all[i % all.size()])) << i;
    }
  }
}

TEST(ProtocolTest, PartialFrameWaitsForMore) {
  const std::string frame = Encode(Heartbeat{1});
  FrameDecoder d;
  d.Append(frame.substr(0, frame.size() - 1));
  auto next = d.Next();
  ASSERT_TRUE(next.ok());
  EXPECT_FALSE(next->has_value());
  d.Append(frame.substr(frame.size() - 1));
  next = d.Next();
  ASSERT_TRUE(next.ok());
  EXPECT_TRUE(next->has_value());
}

TEST(ProtocolTest, OversizedFrameIsRefusedAtOnce) {
  FrameDecoder d(1024);
  d.Append(std::string("\x01\x04\x00\x00", 4));  // 1025 bytes
  auto next = d.Next();
  ASSERT_FALSE(next.ok());
  EXPECT_THAT(next.status().message(), HasSubstr("1025"));
  // Sticky: the stream cannot be resynchronised.
  d.Append(Encode(Heartbeat{1}));
  EXPECT_FALSE(d.Next().ok());
}

TEST(ProtocolTest, LoginBannerIsShownInTheError) {
  FrameDecoder d;
  d.Append("Welcome to node-7!\nLast login: ...\n");
  auto next = d.Next();
  ASSERT_FALSE(next.ok());
  EXPECT_THAT(next.status().message(), HasSubstr("Welcome to node-7!\\n"));
}

TEST(ProtocolTest, MalformedFramesAreErrorsNotCrashes) {
  auto decode = [](std::string body) {
    std::string frame;
    const uint32_t n = static_cast<uint32_t>(body.size());
    for (int i = 0; i < 4; ++i)
      frame.push_back(static_cast<char>(n >> (8 * i)));
    FrameDecoder d;
    d.Append(frame + body);
    return d.Next();
  };
  EXPECT_THAT(decode(std::string(1, '\0')).status().message(),
              HasSubstr("unknown message type 0"));
  EXPECT_THAT(decode("\x63").status().message(),
              HasSubstr("unknown message type 99"));
  // CANCEL needs 8 bytes.
  EXPECT_THAT(decode("\x03\x01\x02").status().message(),
              HasSubstr("ends inside a field"));
  // HEARTBEAT with a byte too many.
  EXPECT_THAT(
      decode(std::string("\x04", 1) + std::string(9, '\0')).status().message(),
      HasSubstr("bytes left"));
  // A string whose length runs past the frame.
  EXPECT_THAT(
      decode(std::string("\x0e\xff\xff\xff\x7f", 5) + "abc").status().message(),
      HasSubstr("REMOVE"));
  // ERROR with a status code that does not exist.
  EXPECT_FALSE(decode(std::string("\x0f", 1) + std::string(8, '\0') + "\x63" +
                      std::string(4, '\0'))
                   .ok());
  // A job parameter kind that does not exist.
  std::string body = Encode(RunJob{OddSpec()}).substr(4);
  const size_t kind_at = 1 + 8 + 4 + 4 + 8 + 4;  // after id/task/op/count
  body[kind_at] = 9;
  EXPECT_THAT(decode(body).status().message(), HasSubstr("out of range"));
  // An outcome tag that does not exist.
  std::string fin = Encode(JobFinished{}).substr(4);
  fin[1 + 8 + 24] = 7;
  EXPECT_FALSE(decode(fin).ok());
  // Zero length.
  FrameDecoder d;
  d.Append(std::string(4, '\0'));
  EXPECT_FALSE(d.Next().ok());
}

TEST(ProtocolTest, RandomCorruptionNeverCrashes) {
  std::string stream;
  for (const Message& m : AllMessages()) AppendFrame(m, &stream);
  std::mt19937 rng(7);
  int errors = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    std::string bad = stream;
    for (int flips = 1 + rng() % 4; flips > 0; --flips) {
      bad[rng() % bad.size()] = static_cast<char>(rng());
    }
    FrameDecoder d(1 << 20);
    d.Append(bad);
    for (int i = 0; i < 100; ++i) {
      auto next = d.Next();
      if (!next.ok()) {
        ++errors;
        break;
      }
      if (!next->has_value()) break;
    }
  }
  EXPECT_GT(errors, 0);  // the corruption was noticed at least sometimes
}

TEST(ProtocolTest, HelloOfAnotherMajorVersionStillDecodes) {
  // A future HELLO: same first three fields, a different layout after.
  std::string body(1, static_cast<char>(MessageType::kHello));
  body += std::string("\x08\x00\x00\x00", 4) + std::string(kMagic);
  body += std::string("\x03\x00\x05\x00", 4);  // 3.5
  body += std::string("\x0a\x00\x00\x00", 4) + "gsrt 9.0.0";
  body += "whatever the future holds";
  auto m = DecodeBody(body);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  const Hello& h = std::get<Hello>(*m);
  EXPECT_EQ(h.major, 3);
  EXPECT_EQ(h.software, "gsrt 9.0.0");
  Status s = CheckHello(h, "the agent");
  EXPECT_EQ(s.code(), Status::Code::kFailedPrecondition);
  EXPECT_THAT(s.message(), HasSubstr("speaks agent protocol 3.5"));
  EXPECT_THAT(s.message(), HasSubstr("install the same gsrt version"));
}

TEST(ProtocolTest, CheckHello) {
  EXPECT_TRUE(CheckHello(Hello(), "peer").ok());
  Hello wrong;
  wrong.magic = "SSH-2.0-";
  EXPECT_THAT(CheckHello(wrong, "peer").message(),
              HasSubstr("does not speak the gsrt agent protocol"));
  Hello newer_minor;
  newer_minor.minor = kProtocolMinor + 3;
  EXPECT_TRUE(CheckHello(newer_minor, "peer").ok());
}

TEST(ProtocolTest, ErrorCodesMapBack) {
  for (auto code : {Status::Code::kNotFound, Status::Code::kPermissionDenied,
                    Status::Code::kIoError, Status::Code::kCancelled}) {
    Status s = MakeStatus(code, "m");
    EXPECT_EQ(s.code(), code);
    EXPECT_EQ(s.message(), "m");
  }
}

TEST(ProtocolTest, Printable) {
  EXPECT_EQ(Printable("ab\n\x01\"", 10), "ab\\n\\x01\\x22");
  EXPECT_EQ(Printable("abcdef", 3), "abc...");
}

}  // namespace
}  // namespace gs::agent
