// The line a pilot sends before the agent protocol, checked against the
// run's token. Arbitrary lines must be refused without a crash; a line
// accepted must carry the token and give back a pilot name that a fresh
// greeting with that name is accepted with again.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "adapters/batch/node/pilot_auth.h"
#include "fuzz/fuzz_check.h"
#include "fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string kToken(64, 'a');
  gs::fuzz::FuzzInput input(data, size);
  // Either the real token or one taken from the input (empty included).
  std::string token = input.Byte() & 1 ? kToken : std::string(input.Field());
  std::string_view line = input.Rest();
  gs::StatusOr<std::string> pilot = gs::CheckPilotGreeting(line, token);
  if (!pilot.ok()) {
    GS_FUZZ_CHECK(pilot.status().code() == gs::Status::Code::kPermissionDenied);
    // Never shows the token (an input-made one may be any word of the
    // message, so only the real one is checked).
    if (token == kToken) {
      GS_FUZZ_CHECK(pilot.status().message().find(token) == std::string::npos);
    }
    return 0;
  }
  GS_FUZZ_CHECK(!token.empty());
  GS_FUZZ_CHECK(line.find(token) != std::string_view::npos);
  std::string again = gs::PilotGreeting(token, *pilot);
  GS_FUZZ_CHECK(!again.empty() && again.back() == '\n');
  again.pop_back();
  gs::StatusOr<std::string> reparsed = gs::CheckPilotGreeting(again, token);
  GS_FUZZ_CHECK(reparsed.ok() && *reparsed == *pilot);
  return 0;
}
