#include "runtime/sched/policies_ft.h"

#include <algorithm>
#include <vector>

namespace gs {
namespace {

// FTMET and FTMCT differ only in the key hosts are ranked by.
class FtPolicy : public HealthAwarePolicy {
 public:
  explicit FtPolicy(bool completion) : completion_(completion) {}

  std::string_view name() const override {
    return completion_ ? "ftmct" : "ftmet";
  }

  Choice Choose(const ReadyTask& task, const SlotBoard& board,
                const Predictor& predictor) override {
    ranked_.clear();
    for (HostId h = 0; h < board.num_hosts(); ++h) {
      if (!board.Fits(h, task.need)) continue;
      Seconds run =
          predictor.ExecTime(task.op, h) + predictor.TransferTime(task.id, h);
      Seconds end = board.EarliestFor(h, task.need) + run;
      ranked_.push_back({completion_ ? end : run, end, h});
    }
    // Stable on host index, so equal keys keep the lowest index first.
    std::stable_sort(
        ranked_.begin(), ranked_.end(),
        [](const Ranked& a, const Ranked& b) { return a.key < b.key; });
    for (const Ranked& r : ranked_) {
      if (Alive(r.host)) return {r.host, r.end};
    }
    return {};
  }

 private:
  struct Ranked {
    Seconds key;
    Seconds end;
    HostId host;
  };
  bool completion_;
  std::vector<Ranked> ranked_;  // reused: Choose runs once per task
};

}  // namespace

bool AttachHostHealth(Policy& policy, const HostHealth* health) {
  auto* aware = dynamic_cast<HealthAwarePolicy*>(&policy);
  if (aware == nullptr) return false;
  aware->set_host_health(health);
  return true;
}

std::unique_ptr<Policy> MakeFtMetPolicy() {
  return std::make_unique<FtPolicy>(false);
}
std::unique_ptr<Policy> MakeFtMctPolicy() {
  return std::make_unique<FtPolicy>(true);
}

}  // namespace gs
