// Parses GRID superscalar IDL text into the model (stubgen/idl_model.h):
//
//   interface NAME {
//     @Constraints(raw text);         // optional, kept with the next op
//     TYPE name(DIR TYPE param, DIR TYPE[8] a, DIR TYPE[n] b, ...);
//   };
//
// Everything is checked here (types, directions, duplicates, names), so the
// emitters never see an invalid model.
#ifndef GSRT_STUBGEN_IDL_PARSER_H_
#define GSRT_STUBGEN_IDL_PARSER_H_

#include <string>
#include <string_view>
#include <vector>

#include "runtime/base/status.h"
#include "stubgen/idl_lexer.h"
#include "stubgen/idl_model.h"

namespace gs {

// Parses a tokenized file. False with `*error` set at the first error.
bool ParseTokens(const std::vector<Token>& tokens, Interface* out,
                 SourceError* error);

// "FILE:LINE:COL: error: MESSAGE", as compilers print it.
std::string FormatSourceError(std::string_view filename,
                              const SourceError& error);

// Tokenizes and parses; on failure the Status message is exactly the
// FormatSourceError text of the first error.
StatusOr<Interface> ParseIdl(std::string_view source,
                             std::string_view filename);

}  // namespace gs

#endif  // GSRT_STUBGEN_IDL_PARSER_H_
