// The units people type and read: time limits, durations, points in time
// and sizes, for gsrt.yaml's batch keys, gsdeploy's options and every table
// that prints them. One lexer (a number, then a unit) under every size and
// duration. Pure string functions, except that local times follow $TZ.
#ifndef GSRT_RUNTIME_BASE_UNITS_H_
#define GSRT_RUNTIME_BASE_UNITS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "runtime/base/clock.h"
#include "runtime/base/status.h"

namespace gs {

// Sizes.

// "1048576", "512K", "64M", "1.5G", "2T" (K = 1024 bytes, also "KiB",
// "KB"; case-insensitive). nullopt when malformed, negative or too large.
std::optional<uint64_t> ParseByteSize(std::string_view text);
// Slurm's memory sizes (gsrt.yaml's `mem`): a whole number, MiB when
// plain, else with one letter K, M, G or T: "4096", "512M", "4G", "100K"
// (rounded up to whole MiB). Returns MiB, or nullopt if malformed or zero.
std::optional<int64_t> ParseMemoryMb(std::string_view text);

// "512 B", "1.5 KiB", "3.2 GiB".
std::string FormatBytes(double bytes);
// "12.5 MB/s" (decimal, as link speeds are quoted).
std::string FormatRate(double bytes_per_second);

// Durations.

// A number and one of s, m, h, d, w (case-insensitive): "90s", "1.5h".
// nullopt when malformed.
std::optional<Seconds> ParseDuration(std::string_view text);
// Slurm time limits (gsrt.yaml's `walltime`): "MM", "MM:SS", "HH:MM:SS",
// "D-HH", "D-HH:MM", "D-HH:MM:SS". Returns seconds, or nullopt if
// malformed or zero.
std::optional<Seconds> ParseWalltime(std::string_view text);

// "H:MM:SS", or "D-HH:MM:SS" from one day on.
std::string FormatWalltime(Seconds seconds);
// A number through a printf format for one double ("%.2f", "%g").
std::string FormatNumber(double value, const char* printf_format);
// "850 us", "12.3 ms", "4.20 s", "3.5 min", "2.1 h".
std::string FormatDuration(Seconds seconds);

// Points in time, as seconds since the epoch.

// For --since:
//   relative: a ParseDuration before `now` ("90s", "30m", "2h", "3d", "1w");
//   absolute: "2024-05-01", "2024-05-01T12:30", "2024-05-01 12:30:15",
//   in local time, or UTC with a trailing "Z".
// InvalidArgument naming the accepted forms when malformed.
StatusOr<Seconds> ParseSince(std::string_view text, Seconds now);

// "2024-05-01 12:30:15" in local time (UTC when `utc`).
std::string FormatTimestamp(Seconds epoch, bool utc = false);
// ISO 8601 in UTC: "2024-05-01T12:30:15Z".
std::string FormatIsoUtc(Seconds epoch);

}  // namespace gs

#endif  // GSRT_RUNTIME_BASE_UNITS_H_
