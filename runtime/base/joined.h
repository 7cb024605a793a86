// Strings with a separator between them: "a, b, c", "0,1".
#ifndef GSRT_RUNTIME_BASE_JOINED_H_
#define GSRT_RUNTIME_BASE_JOINED_H_

#include <span>
#include <string>
#include <string_view>

namespace gs {

std::string Joined(std::span<const std::string> items,
                   std::string_view separator);

}  // namespace gs

#endif  // GSRT_RUNTIME_BASE_JOINED_H_
