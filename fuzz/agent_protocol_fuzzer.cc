// The agent protocol decoder on arbitrary bytes, delivered in slices split
// where the input says (as a socket would). Both directions use this
// decoder: the master decodes HELLO/JOB_FINISHED/GET_CHUNK..., the agent
// RUN_JOB/PUT_*/GET_REQUEST/REMOVE; the agent-side checks of what it
// receives run too (CheckHello, ConfinedPath for every path a master
// names). Every decoded message must re-encode to a frame that decodes to
// the same encoding.
#include <cstddef>
#include <cstdint>
#include <string>
#include <variant>

#include "adapters/agent/protocol.h"
#include "adapters/agent/staging_files.h"
#include "fuzz/fuzz_check.h"
#include "fuzz/fuzz_input.h"

namespace {

namespace agent = gs::agent;

void CheckRoundTrip(const agent::Message& message) {
  std::string frame = agent::Encode(message);
  agent::FrameDecoder again;
  again.Append(frame);
  gs::StatusOr<std::optional<agent::Message>> decoded = again.Next();
  GS_FUZZ_CHECK(decoded.ok());
  GS_FUZZ_CHECK(decoded->has_value());
  GS_FUZZ_CHECK(agent::Encode(**decoded) == frame);
  GS_FUZZ_CHECK(again.buffered() == 0);
}

// What the agent does with a path from the master before touching a file.
void CheckPath(const std::string& path) {
  static const std::string root = "/fuzz/work";
  gs::StatusOr<std::string> confined = gs::ConfinedPath(root, path);
  if (confined.ok()) {
    GS_FUZZ_CHECK(confined->rfind(root + "/", 0) == 0);
    GS_FUZZ_CHECK(confined->find("/../") == std::string::npos);
  }
}

void Inspect(const agent::Message& message) {
  agent::TypeName(agent::TypeOf(message));
  if (auto* hello = std::get_if<agent::Hello>(&message)) {
    gs::Status ok = agent::CheckHello(*hello, "the fuzz peer");
    GS_FUZZ_CHECK(ok.ok() || !ok.message().empty());
  } else if (auto* put = std::get_if<agent::PutBegin>(&message)) {
    CheckPath(put->path);
  } else if (auto* get = std::get_if<agent::GetRequest>(&message)) {
    CheckPath(get->path);
  } else if (auto* remove = std::get_if<agent::Remove>(&message)) {
    CheckPath(remove->path);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  gs::fuzz::FuzzInput input(data, size);
  // A small frame limit sometimes, to reach the oversize path cheaply.
  uint8_t limit = input.Byte();
  agent::FrameDecoder decoder(limit < 16 ? 64u + limit : agent::kMaxFrameBytes);
  while (!input.empty()) {
    size_t slice = 1 + input.Byte() % 64;
    decoder.Append(input.Bytes(slice));
    for (;;) {
      gs::StatusOr<std::optional<agent::Message>> next = decoder.Next();
      if (!next.ok()) {
        // Sticky: the stream cannot be resynchronised.
        GS_FUZZ_CHECK(!decoder.Next().ok());
        agent::Printable(input.Rest());
        return 0;
      }
      if (!next->has_value()) break;
      Inspect(**next);
      CheckRoundTrip(**next);
    }
  }
  return 0;
}
