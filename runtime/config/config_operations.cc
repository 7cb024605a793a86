#include "runtime/config/config_operations.h"

#include <string_view>

#include "runtime/config/config_validate.h"

namespace gs {

namespace {

// A sim host's per-operation parameters: "time.OP".
constexpr std::string_view kSimTimePrefix = "time.";

}  // namespace

Status CheckOperationKeys(const Config& config,
                          const std::vector<std::string>& operations) {
  std::vector<std::string_view> known(operations.begin(), operations.end());
  std::string listed;
  for (const std::string& op : operations) {
    listed += (listed.empty() ? "" : ", ") + op;
  }
  std::string errors;
  auto check = [&](const std::string& op, const std::string& path) {
    for (const std::string& k : operations) {
      if (k == op) return;
    }
    if (!errors.empty()) errors += "\n";
    errors += config.source.Where(path) + DescribeKey(path, config) +
              ": the program has no operation '" + op +
              "' (its IDL declares: " + listed + ")" + DidYouMean(op, known);
  };
  for (const auto& [op, seconds] : config.runtime.timeout) {
    check(op, "runtime.timeout." + op);
  }
  for (const auto& [op, labels] : config.runtime.hosts) {
    check(op, "runtime.hosts." + op);
  }
  for (size_t i = 0; i < config.runtime.never_reuse.size(); ++i) {
    check(config.runtime.never_reuse[i],
          "runtime.never_reuse[" + std::to_string(i) + "]");
  }
  for (size_t i = 0; i < config.hosts.size(); ++i) {
    for (const auto& [key, value] : config.hosts[i].sim) {
      if (!key.starts_with(kSimTimePrefix) ||
          key.size() == kSimTimePrefix.size()) {
        continue;
      }
      check(key.substr(kSimTimePrefix.size()),
            "hosts[" + std::to_string(i) + "].sim." + key);
    }
  }
  if (errors.empty()) return Status::Ok();
  return Status::InvalidArgument(errors);
}

}  // namespace gs
