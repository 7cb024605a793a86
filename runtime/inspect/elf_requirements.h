// What a program or shared library needs of the C and C++ runtimes of the
// machine it runs on: the symbol versions (GLIBC_2.34, GLIBCXX_3.4.30) it
// references, read from its ELF file's version-needs section. A site reads
// them (`gsrt --version --verbose`) to know whether a build fits its nodes.
#ifndef GSRT_RUNTIME_INSPECT_ELF_REQUIREMENTS_H_
#define GSRT_RUNTIME_INSPECT_ELF_REQUIREMENTS_H_

#include <map>
#include <set>
#include <string>
#include <string_view>

#include "runtime/base/status.h"

namespace gs {

// Library file name ("libc.so.6") -> the version names needed from it.
using VersionNeeds = std::map<std::string, std::set<std::string>>;

// The version needs of a 64-bit little-endian ELF image (a whole file's
// bytes). An image with no needs gives an empty map; bytes that are not
// such an ELF file, or a truncated one, give kInvalidArgument.
StatusOr<VersionNeeds> ReadVersionNeeds(std::string_view image);

// The highest of `versions` named PREFIX_<dotted numbers>, compared number
// by number ("GLIBC_2.34" > "GLIBC_2.4"); empty when none has the prefix.
std::string HighestVersion(const std::set<std::string>& versions,
                           std::string_view prefix);

// One line for the file at `path`: "glibc >= 2.34, libstdc++ >= 3.4.30"
// (GLIBC_ from libc, GLIBCXX_ from libstdc++; "no libstdc++" when it does
// not link it), or what kept it from being read.
std::string DescribeRuntimeNeeds(const std::string& path);

}  // namespace gs

#endif  // GSRT_RUNTIME_INSPECT_ELF_REQUIREMENTS_H_
