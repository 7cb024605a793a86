#include "runtime/base/units.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

namespace gs {
namespace {

// Digits only, no sign; false on overflow.
bool ParseCount(std::string_view s, int64_t* out) {
  if (s.empty()) return false;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && end == s.data() + s.size() && *out >= 0;
}

}  // namespace

std::optional<Seconds> ParseWalltime(std::string_view text) {
  int64_t days = 0;
  size_t dash = text.find('-');
  bool has_days = dash != std::string_view::npos;
  if (has_days) {
    if (!ParseCount(text.substr(0, dash), &days)) return std::nullopt;
    text = text.substr(dash + 1);
  }
  std::vector<int64_t> parts;
  for (size_t start = 0;;) {
    size_t colon = text.find(':', start);
    int64_t v;
    if (!ParseCount(text.substr(start, colon - start), &v)) return std::nullopt;
    parts.push_back(v);
    if (colon == std::string_view::npos) break;
    start = colon + 1;
  }
  if (parts.size() > 3) return std::nullopt;
  int64_t h = 0, m = 0, s = 0;
  if (has_days) {  // D-HH, D-HH:MM, D-HH:MM:SS
    h = parts[0];
    if (parts.size() > 1) m = parts[1];
    if (parts.size() > 2) s = parts[2];
  } else if (parts.size() == 1) {  // MM
    m = parts[0];
  } else if (parts.size() == 2) {  // MM:SS
    m = parts[0];
    s = parts[1];
  } else {  // HH:MM:SS
    h = parts[0];
    m = parts[1];
    s = parts[2];
  }
  constexpr int64_t kMax = int64_t{1} << 40;
  if (days > kMax || h > kMax || m > kMax || s > kMax) return std::nullopt;
  int64_t total = ((days * 24 + h) * 60 + m) * 60 + s;
  if (total <= 0) return std::nullopt;
  return static_cast<Seconds>(total);
}

std::string FormatWalltime(Seconds seconds) {
  int64_t total = static_cast<int64_t>(std::llround(seconds));
  int64_t days = total / 86400;
  int64_t h = total % 86400 / 3600, m = total % 3600 / 60, s = total % 60;
  char buf[64];
  if (days > 0) {
    std::snprintf(buf, sizeof buf, "%lld-%02lld:%02lld:%02lld",
                  static_cast<long long>(days), static_cast<long long>(h),
                  static_cast<long long>(m), static_cast<long long>(s));
  } else {
    std::snprintf(buf, sizeof buf, "%lld:%02lld:%02lld",
                  static_cast<long long>(h), static_cast<long long>(m),
                  static_cast<long long>(s));
  }
  return buf;
}

std::optional<int64_t> ParseMemoryMb(std::string_view text) {
  int64_t per_unit_kb = 1024;  // plain numbers are MiB, as in Slurm
  if (!text.empty() && std::isalpha(static_cast<unsigned char>(text.back()))) {
    switch (std::toupper(static_cast<unsigned char>(text.back()))) {
      case 'K':
        per_unit_kb = 1;
        break;
      case 'M':
        per_unit_kb = 1024;
        break;
      case 'G':
        per_unit_kb = 1024 * 1024;
        break;
      case 'T':
        per_unit_kb = int64_t{1024} * 1024 * 1024;
        break;
      default:
        return std::nullopt;
    }
    text.remove_suffix(1);
  }
  int64_t n;
  if (!ParseCount(text, &n) || n == 0) return std::nullopt;
  if (n > std::numeric_limits<int64_t>::max() / per_unit_kb) {
    return std::nullopt;
  }
  return (n * per_unit_kb + 1023) / 1024;
}

}  // namespace gs
