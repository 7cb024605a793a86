// The IDL lexer and parser on arbitrary text; for every interface they
// accept, the emitters too (the parser promises them a valid model).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz/fuzz_check.h"
#include "stubgen/emitters.h"
#include "stubgen/idl_parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  gs::StatusOr<gs::Interface> parsed = gs::ParseIdl(text, "fuzz.idl");
  if (!parsed.ok()) {
    // Errors name the file, as compilers do.
    GS_FUZZ_CHECK(parsed.status().message().rfind("fuzz.idl:", 0) == 0);
    return 0;
  }
  std::vector<gs::GeneratedFile> files =
      gs::EmitAll(*parsed, {.base = "fuzz", .source = "fuzz.idl"});
  GS_FUZZ_CHECK(files.size() == 4);
  return 0;
}
