#include "runtime/base/units.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

namespace gs {

namespace {

// Digits only, no sign; false on overflow.
bool ParseCount(std::string_view s, int64_t* out) {
  if (s.empty()) return false;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && end == s.data() + s.size() && *out >= 0;
}

// A quantity as typed: a non-negative decimal number, then letters.
struct Quantity {
  double value = 0;
  bool whole = true;  // no decimal point
  std::string unit;   // lower case; "" when none
};

std::optional<Quantity> Lex(std::string_view text) {
  size_t i = 0;
  bool digits = false;
  Quantity q;
  for (; i < text.size(); ++i) {
    if (std::isdigit(static_cast<unsigned char>(text[i]))) {
      digits = true;
    } else if (text[i] == '.' && q.whole) {
      q.whole = false;
    } else {
      break;
    }
  }
  if (!digits) return std::nullopt;
  q.value = std::strtod(std::string(text.substr(0, i)).c_str(), nullptr);
  for (char c : text.substr(i)) {
    q.unit += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return q;
}

constexpr double kMiB = 1024.0 * 1024;

// The bytes of a size where a plain number counts `plain` bytes. Slurm's
// syntax takes whole numbers and one-letter units only.
std::optional<double> SizeInBytes(std::string_view text, double plain,
                                  bool slurm) {
  const std::optional<Quantity> q = Lex(text);
  if (!q || (slurm && !q->whole)) return std::nullopt;
  double scale = 0;
  if (q->unit.empty()) {
    scale = plain;
  } else if (q->unit == "b" && !slurm) {
    scale = 1;
  } else {
    static constexpr struct {
      char letter;
      double scale;
    } kUnits[] = {{'k', 1024.0},
                  {'m', kMiB},
                  {'g', kMiB * 1024},
                  {'t', kMiB * 1024 * 1024}};
    const std::string_view suffix = std::string_view(q->unit).substr(1);
    for (const auto& u : kUnits) {
      if (q->unit[0] != u.letter) continue;
      if (suffix.empty() || (!slurm && (suffix == "b" || suffix == "ib"))) {
        scale = u.scale;
      }
    }
  }
  if (scale == 0) return std::nullopt;
  const double bytes = q->value * scale;
  if (!(bytes < 1.8e19)) return std::nullopt;  // beyond uint64_t
  return bytes;
}

std::string Fixed(double value, const char* unit) {
  char text[48];
  const int precision = value < 10 ? 2 : (value < 100 ? 1 : 0);
  std::snprintf(text, sizeof text, "%.*f %s", precision, value, unit);
  return text;
}

// "YYYY-MM-DD[(T| )HH:MM[:SS]][Z]"; false when malformed.
bool ParseDateTime(std::string_view text, Seconds* out) {
  std::string s(text);
  bool utc = false;
  if (!s.empty() && (s.back() == 'Z' || s.back() == 'z')) {
    utc = true;
    s.pop_back();
  }
  std::tm tm{};
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  char sep = 0;
  int used = 0;
  if (std::sscanf(s.c_str(), "%4d-%2d-%2d%n", &year, &month, &day, &used) !=
          3 ||
      used != 10) {
    return false;
  }
  if (s.size() > 10) {
    int more = 0;
    const char* t = s.c_str() + 10;
    int n = std::sscanf(t, "%c%2d:%2d%n:%2d%n", &sep, &hour, &minute, &more,
                        &second, &more);
    if (n < 3 || (sep != 'T' && sep != 't' && sep != ' ') ||
        t + more != s.c_str() + s.size()) {
      return false;
    }
  }
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 ||
      minute > 59 || second > 60) {
    return false;
  }
  tm.tm_year = year - 1900;
  tm.tm_mon = month - 1;
  tm.tm_mday = day;
  tm.tm_hour = hour;
  tm.tm_min = minute;
  tm.tm_sec = second;
  tm.tm_isdst = -1;
  const time_t t = utc ? timegm(&tm) : std::mktime(&tm);
  if (t == static_cast<time_t>(-1)) return false;
  *out = static_cast<Seconds>(t);
  return true;
}

}  // namespace

std::optional<uint64_t> ParseByteSize(std::string_view text) {
  const std::optional<double> bytes = SizeInBytes(text, 1, /*slurm=*/false);
  if (!bytes) return std::nullopt;
  return static_cast<uint64_t>(std::ceil(*bytes));
}

std::optional<int64_t> ParseMemoryMb(std::string_view text) {
  const std::optional<double> bytes = SizeInBytes(text, kMiB, /*slurm=*/true);
  if (!bytes || *bytes == 0) return std::nullopt;
  return static_cast<int64_t>(std::ceil(*bytes / kMiB));
}

std::optional<Seconds> ParseDuration(std::string_view text) {
  const std::optional<Quantity> q = Lex(text);
  if (!q || q->unit.size() != 1) return std::nullopt;
  const double scale = q->unit[0] == 's'   ? 1
                       : q->unit[0] == 'm' ? 60
                       : q->unit[0] == 'h' ? 3600
                       : q->unit[0] == 'd' ? 86400
                       : q->unit[0] == 'w' ? 7 * 86400
                                           : 0;
  if (scale == 0) return std::nullopt;
  return q->value * scale;
}

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

StatusOr<Seconds> ParseSince(std::string_view text, Seconds now) {
  if (std::optional<Seconds> ago = ParseDuration(text)) return now - *ago;
  Seconds absolute = 0;
  if (ParseDateTime(text, &absolute)) return absolute;
  return Status::InvalidArgument(
      "cannot read the time '" + std::string(text) +
      "'; use a duration before now (90s, 30m, 2h, 3d, 1w) or a date and "
      "time (2024-05-01, 2024-05-01T12:30, 2024-05-01 12:30:15, local time; "
      "add Z for UTC)");
}

std::string FormatBytes(double bytes) {
  if (bytes < 1024) {
    char text[32];
    std::snprintf(text, sizeof text, "%.0f B", bytes);
    return text;
  }
  static const char* const kUnits[] = {"KiB", "MiB", "GiB", "TiB", "PiB"};
  int i = 0;
  double value = bytes / 1024;
  while (value >= 1024 && i < 4) {
    value /= 1024;
    ++i;
  }
  return Fixed(value, kUnits[i]);
}

std::string FormatNumber(double value, const char* printf_format) {
  char text[48];
  std::snprintf(text, sizeof text, printf_format, value);
  return text;
}

std::string FormatDuration(Seconds s) {
  if (s < 0) return "-" + FormatDuration(-s);
  if (s == 0) return "0 s";
  if (s < 1e-3) return Fixed(s * 1e6, "us");
  if (s < 1) return Fixed(s * 1e3, "ms");
  if (s < 120) return Fixed(s, "s");
  if (s < 7200) return Fixed(s / 60, "min");
  return Fixed(s / 3600, "h");
}

std::string FormatRate(double bytes_per_second) {
  if (bytes_per_second >= 1e9) return Fixed(bytes_per_second / 1e9, "GB/s");
  if (bytes_per_second >= 1e6) return Fixed(bytes_per_second / 1e6, "MB/s");
  if (bytes_per_second >= 1e3) return Fixed(bytes_per_second / 1e3, "kB/s");
  return Fixed(bytes_per_second, "B/s");
}

std::string FormatTimestamp(Seconds epoch, bool utc) {
  const time_t t = static_cast<time_t>(std::floor(epoch));
  std::tm tm{};
  if (utc) {
    gmtime_r(&t, &tm);
  } else {
    localtime_r(&t, &tm);
  }
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S", &tm);
  return text;
}

std::string FormatIsoUtc(Seconds epoch) {
  std::string text = FormatTimestamp(epoch, /*utc=*/true);
  text[10] = 'T';
  return text + "Z";
}

}  // namespace gs
