#include "adapters/local/host_facts.h"

#include <stdlib.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <thread>

namespace gs {

uint64_t MeminfoBytes(std::string_view meminfo, std::string_view key) {
  size_t pos = 0;
  while (pos < meminfo.size()) {
    size_t end = meminfo.find('\n', pos);
    if (end == std::string_view::npos) end = meminfo.size();
    std::string_view line = meminfo.substr(pos, end - pos);
    pos = end + 1;
    if (line.size() <= key.size() || line.substr(0, key.size()) != key ||
        line[key.size()] != ':') {
      continue;
    }
    const std::string rest(line.substr(key.size() + 1));
    char* unit = nullptr;
    const unsigned long long value = std::strtoull(rest.c_str(), &unit, 10);
    const bool kb = std::string_view(unit).find("kB") != std::string_view::npos;
    return kb ? value * 1024 : value;
  }
  return 0;
}

double ReadLoad1() {
  double load[1] = {0};
  return ::getloadavg(load, 1) == 1 ? load[0] : 0;
}

MachineFacts ReadMachineFacts() {
  MachineFacts facts;
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) == 0) facts.host_name = name;
  facts.cores = std::thread::hardware_concurrency();
  std::ifstream in("/proc/meminfo");
  const std::string meminfo(std::istreambuf_iterator<char>(in), {});
  facts.memory_total = MeminfoBytes(meminfo, "MemTotal");
  facts.memory_available = MeminfoBytes(meminfo, "MemAvailable");
  facts.load1 = ReadLoad1();
  return facts;
}

}  // namespace gs
