#include "runtime/base/joined.h"

namespace gs {

std::string Joined(std::span<const std::string> items,
                   std::string_view separator) {
  std::string text;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) text += separator;
    text += items[i];
  }
  return text;
}

}  // namespace gs
