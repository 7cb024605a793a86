// The units of batch keys in config files: Slurm-style time limits and
// memory sizes. Pure string functions.
#ifndef GSRT_RUNTIME_BASE_UNITS_H_
#define GSRT_RUNTIME_BASE_UNITS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "runtime/base/clock.h"

namespace gs {

// Slurm time formats: "MM", "MM:SS", "HH:MM:SS", "D-HH", "D-HH:MM",
// "D-HH:MM:SS". Returns seconds, or nullopt if malformed or zero.
std::optional<Seconds> ParseWalltime(std::string_view text);
// "H:MM:SS", or "D-HH:MM:SS" from one day on.
std::string FormatWalltime(Seconds seconds);
// "4096" (MiB), "512M", "4G", "1T", "100K" (rounded up to whole MiB).
// Returns MiB, or nullopt if malformed or zero.
std::optional<int64_t> ParseMemoryMb(std::string_view text);

}  // namespace gs

#endif  // GSRT_RUNTIME_BASE_UNITS_H_
