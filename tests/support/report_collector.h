// Collects JobReports from adapter callbacks and checks the callback
// contract as it goes: exactly once per job, never inside Submit.
#ifndef GSRT_TESTS_SUPPORT_REPORT_COLLECTOR_H_
#define GSRT_TESTS_SUPPORT_REPORT_COLLECTOR_H_

#include <map>
#include <string>
#include <variant>

#include "adapters/adapter.h"

namespace gs {

class ReportCollector {
 public:
  // Submits through `adapter`, noting if `done` fires inside Submit.
  void Submit(Adapter& adapter, JobSpec spec) {
    in_submit_ = true;
    adapter.Submit(std::move(spec), Callback());
    in_submit_ = false;
  }

  Adapter::DoneCallback Callback() {
    return [this](JobReport report) {
      if (in_submit_) ++inside_submit_;
      ++calls_[report.id];
      reports_[report.id] = std::move(report);
    };
  }

  bool Has(JobId id) const { return reports_.count(id) > 0; }
  const JobReport& Get(JobId id) const { return reports_.at(id); }
  size_t size() const { return reports_.size(); }
  int calls(JobId id) const {
    auto it = calls_.find(id);
    return it == calls_.end() ? 0 : it->second;
  }
  // Callbacks that ran inside Submit (must stay 0).
  int inside_submit() const { return inside_submit_; }
  // Jobs reported more than once (must stay empty).
  std::string Duplicates() const {
    std::string out;
    for (const auto& [id, n] : calls_) {
      if (n > 1) out += std::to_string(id) + "x" + std::to_string(n) + " ";
    }
    return out;
  }

 private:
  bool in_submit_ = false;
  int inside_submit_ = 0;
  std::map<JobId, int> calls_;
  std::map<JobId, JobReport> reports_;
};

// The Exited of `report`, or nullptr when the outcome is something else.
inline const Exited* AsExited(const JobReport& report) {
  return std::get_if<Exited>(&report.outcome);
}

inline const char* OutcomeName(const JobReport& report) {
  switch (report.outcome.index()) {
    case 0:
      return "Exited";
    case 1:
      return "HostFailed";
    case 2:
      return "TimedOut";
    case 3:
      return "Cancelled";
  }
  return "?";
}

}  // namespace gs

#endif  // GSRT_TESTS_SUPPORT_REPORT_COLLECTOR_H_
