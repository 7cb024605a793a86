// What an agent tells the master about its host in HELLO: read from the
// system (sysconf, /proc/meminfo, getloadavg) when the agent starts.
#ifndef GSRT_ADAPTERS_LOCAL_HOST_FACTS_H_
#define GSRT_ADAPTERS_LOCAL_HOST_FACTS_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace gs {

struct MachineFacts {
  std::string host_name;
  uint32_t cores = 0;
  uint64_t memory_total = 0;      // bytes
  uint64_t memory_available = 0;  // bytes
  double load1 = 0;
};

MachineFacts ReadMachineFacts();

// The 1-minute load average (0 when unknown).
double ReadLoad1();

// Parses a /proc/meminfo line value "MemAvailable:   123 kB" for `key`;
// 0 when absent. Pure, for tests.
uint64_t MeminfoBytes(std::string_view meminfo, std::string_view key);

}  // namespace gs

#endif  // GSRT_ADAPTERS_LOCAL_HOST_FACTS_H_
