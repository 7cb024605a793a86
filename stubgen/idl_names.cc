#include "stubgen/idl_names.h"

#include <algorithm>
#include <iterator>

#include "stubgen/idl_model.h"

namespace gs {

namespace {

// C and C++ keywords, alternative tokens, and macros of the headers that the
// generated code includes (stdbool.h, stddef.h).
// clang-format off
constexpr std::string_view kReserved[] = {
    "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor",
    "bool", "break", "case", "catch", "char", "char8_t", "char16_t", "char32_t",
    "class", "compl", "concept", "const", "consteval", "constexpr", "constinit",
    "const_cast", "continue", "co_await", "co_return", "co_yield", "decltype",
    "default", "delete", "do", "double", "dynamic_cast", "else", "enum",
    "explicit", "export", "extern", "false", "float", "for", "friend", "goto",
    "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept",
    "not", "not_eq", "nullptr", "operator", "or", "or_eq", "private",
    "protected", "public", "register", "reinterpret_cast", "requires",
    "restrict", "return", "short", "signed", "sizeof", "static",
    "static_assert", "static_cast", "struct", "switch", "template", "this",
    "thread_local", "throw", "true", "try", "typedef", "typeid", "typename",
    "union", "unsigned", "using", "virtual", "void", "volatile", "wchar_t",
    "while", "xor", "xor_eq", "NULL", "offsetof", "main", "interface",
};
// clang-format on

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

}  // namespace

std::string CheckName(std::string_view name, std::string_view what) {
  std::string quoted = "'" + std::string(name) + "'";
  if (DirFromIdlName(name) || TypeFromIdlName(name)) {
    return quoted + " is an IDL keyword and cannot be used as " +
           std::string(what);
  }
  if (std::find(std::begin(kReserved), std::end(kReserved), name) !=
      std::end(kReserved)) {
    return quoted + " is reserved in C/C++ and cannot be used as " +
           std::string(what);
  }
  if (StartsWith(name, "gs_") || StartsWith(name, "GS_") ||
      StartsWith(name, "tramp_")) {
    return quoted + " cannot be used as " + std::string(what) +
           ": names starting with gs_, GS_ or tramp_ are used by the "
           "generated code";
  }
  if (StartsWith(name, "__") ||
      (name.size() > 1 && name[0] == '_' && name[1] >= 'A' && name[1] <= 'Z')) {
    return quoted + " cannot be used as " + std::string(what) +
           ": names starting with __ or _ and a capital letter are reserved "
           "in C/C++";
  }
  return "";
}

}  // namespace gs
