// Units of gsdeploy's command line and tables: byte sizes, points in time
// ("since" filters), durations. Pure string functions.
#ifndef GSRT_RUNTIME_DEPLOY_DEPLOY_UNITS_H_
#define GSRT_RUNTIME_DEPLOY_DEPLOY_UNITS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "runtime/base/clock.h"
#include "runtime/base/status.h"

namespace gs {

// "1048576", "512K", "64M", "1.5G", "2T" (K = 1024 bytes, also "KiB",
// "KB"; case-insensitive). nullopt when malformed, negative or too large.
std::optional<uint64_t> ParseByteSize(std::string_view text);

// A point in time for --since, as seconds since the epoch:
//   relative: "90s", "30m", "2h", "3d", "1w" before `now`;
//   absolute: "2024-05-01", "2024-05-01T12:30", "2024-05-01 12:30:15",
//   in local time, or UTC with a trailing "Z".
// InvalidArgument naming the accepted forms when malformed.
StatusOr<Seconds> ParseSince(std::string_view text, Seconds now);

// "512 B", "1.5 KiB", "3.2 GiB".
std::string FormatBytes(double bytes);
// "850 us", "12.3 ms", "4.20 s", "3.5 min", "2.1 h".
std::string FormatDuration(Seconds seconds);
// "12.5 MB/s" (decimal, as link speeds are quoted).
std::string FormatRate(double bytes_per_second);
// "2024-05-01 12:30:15" in local time (UTC when `utc`).
std::string FormatTimestamp(Seconds epoch, bool utc = false);
// ISO 8601 in UTC: "2024-05-01T12:30:15Z".
std::string FormatIsoUtc(Seconds epoch);

}  // namespace gs

#endif  // GSRT_RUNTIME_DEPLOY_DEPLOY_UNITS_H_
