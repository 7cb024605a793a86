// Which identifiers the IDL accepts as names. Names become C and C++
// identifiers in the generated code, so keywords of either language and the
// prefixes that generated code uses are refused.
#ifndef GSRT_STUBGEN_IDL_NAMES_H_
#define GSRT_STUBGEN_IDL_NAMES_H_

#include <string>
#include <string_view>

namespace gs {

// Why `name` cannot name a `what` ("operation name"), or "" when it can.
std::string CheckName(std::string_view name, std::string_view what);

}  // namespace gs

#endif  // GSRT_STUBGEN_IDL_NAMES_H_
