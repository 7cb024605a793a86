// gsrt.yaml on arbitrary text: parse, resolve, validate. A config that
// loads must survive ConfigToYaml and load back equal (the promise of
// config_yaml.h), and every error must name the file.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "fuzz/fuzz_check.h"
#include "runtime/config/config.h"
#include "runtime/config/config_yaml.h"

namespace {

const gs::ConfigEnv& Env() {
  static const gs::ConfigEnv env{
      .cwd = "/fuzz/cwd", .home = "/fuzz/home", .user = "fuzz", .cores = 4};
  return env;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  gs::StatusOr<gs::Config> loaded =
      gs::LoadConfigFromString(text, "fuzz.yaml", Env());
  if (!loaded.ok()) {
    GS_FUZZ_CHECK(!loaded.status().message().empty());
    return 0;
  }
  std::string again = gs::ConfigToYaml(*loaded);
  gs::StatusOr<gs::Config> reloaded =
      gs::LoadConfigFromString(again, "again.yaml", Env());
  if (!reloaded.ok()) {
    std::fprintf(stderr, "reload failed: %s\n--- yaml ---\n%s\n",
                 reloaded.status().message().c_str(), again.c_str());
  }
  GS_FUZZ_CHECK(reloaded.ok());
  GS_FUZZ_CHECK(*reloaded == *loaded);
  return 0;
}
