#include "runtime/deploy/deploy_units.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>

namespace gs {

namespace {

std::string Lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(c));
  return out;
}

// Parses a non-negative decimal number at the start of `text`; the rest
// goes to `rest`.
std::optional<double> LeadingNumber(std::string_view text,
                                    std::string_view* rest) {
  size_t i = 0;
  bool digits = false, dot = false;
  for (; i < text.size(); ++i) {
    if (std::isdigit(static_cast<unsigned char>(text[i]))) {
      digits = true;
    } else if (text[i] == '.' && !dot) {
      dot = true;
    } else {
      break;
    }
  }
  if (!digits) return std::nullopt;
  *rest = text.substr(i);
  return std::strtod(std::string(text.substr(0, i)).c_str(), nullptr);
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
  std::string_view rest;
  std::optional<double> number = LeadingNumber(text, &rest);
  if (!number) return std::nullopt;
  const std::string unit = Lower(rest);
  double scale = 0;
  if (unit.empty() || unit == "b") {
    scale = 1;
  } else {
    static constexpr struct {
      char letter;
      double scale;
    } kUnits[] = {{'k', 1024.0},
                  {'m', 1024.0 * 1024},
                  {'g', 1024.0 * 1024 * 1024},
                  {'t', 1024.0 * 1024 * 1024 * 1024}};
    for (const auto& u : kUnits) {
      if (unit[0] != u.letter) continue;
      const std::string_view suffix = std::string_view(unit).substr(1);
      if (suffix.empty() || suffix == "b" || suffix == "ib") scale = u.scale;
    }
  }
  if (scale == 0) return std::nullopt;
  const double bytes = std::ceil(*number * scale);
  if (!(bytes < 1.8e19)) return std::nullopt;
  return static_cast<uint64_t>(bytes);
}

StatusOr<Seconds> ParseSince(std::string_view text, Seconds now) {
  std::string_view rest;
  if (std::optional<double> n = LeadingNumber(text, &rest);
      n && rest.size() == 1) {
    const char unit = static_cast<char>(std::tolower(rest[0]));
    const double scale = unit == 's'   ? 1
                         : unit == 'm' ? 60
                         : unit == 'h' ? 3600
                         : unit == 'd' ? 86400
                         : unit == 'w' ? 7 * 86400
                                       : 0;
    if (scale > 0) return now - *n * scale;
  }
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
