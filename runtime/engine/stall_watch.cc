#include "runtime/engine/stall_watch.h"

#include <algorithm>
#include <cstdio>

namespace gs {

bool StallWatch::Look(const StallLook& look) {
  bool idle =
      bound_ > 0 && look.ready > 0 && look.free_slots > 0 && look.active == 0;
  bool moved = look.moved != moved_;
  moved_ = look.moved;
  if (!idle) {
    since_ = -1;
    return false;
  }
  // Something started or ended since the last look: stuck from now at most.
  if (moved || since_ < 0) since_ = look.now;
  return look.now - since_ >= bound_;
}

std::string DescribeStall(const std::string& policy, Seconds stuck_for,
                          const std::vector<std::string>& waiting,
                          const std::vector<StalledHost>& hosts) {
  constexpr size_t kShown = 8;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.0f", stuck_for);
  std::string out = "the run stalled: for " + std::string(buf) + " s policy '" +
                    policy + "' placed none of the " +
                    std::to_string(waiting.size()) +
                    " ready tasks although slots were free and nothing ran."
                    "\n  waiting:";
  for (size_t i = 0; i < waiting.size() && i < kShown; ++i) {
    out += (i ? ", " : " ") + waiting[i];
  }
  if (waiting.size() > kShown) {
    out += " and " + std::to_string(waiting.size() - kShown) + " more";
  }
  const bool gpus_asked =
      std::any_of(waiting.begin(), waiting.end(), [](const std::string& w) {
        return w.find(" GPUs)") != std::string::npos;
      });
  out += "\n  hosts:";
  for (size_t i = 0; i < hosts.size(); ++i) {
    const StalledHost& h = hosts[i];
    out += (i ? ", " : " ") + h.name + " (" + h.health +
           (h.usable ? "" : ", unusable") + ", " +
           std::to_string(h.free_slots) + " free slots";
    if (gpus_asked) {
      out += ", " + std::to_string(h.free_gpus) + " of " +
             std::to_string(h.gpus) + " GPUs free";
    }
    out += ")";
  }
  out +=
      "\n  The ready tasks are failed. Use another policy (runtime.policy in "
      "gsrt.yaml, e.g. mct), or raise runtime.stall_timeout if the policy "
      "waits on purpose.";
  return out;
}

}  // namespace gs
