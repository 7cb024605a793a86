// Collects JobReports from adapter callbacks and checks the callback
// contract as it goes: exactly once per job, never inside Submit.
#ifndef GSRT_TESTS_SUPPORT_REPORT_COLLECTOR_H_
#define GSRT_TESTS_SUPPORT_REPORT_COLLECTOR_H_

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <map>
#include <string>
#include <variant>

#include "adapters/adapter.h"
#include "tests/support/run_until.h"

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

// Submits `spec` through `reports` and drives `io` until its report comes
// (bounded by RunUntil); an empty report, and a failed expectation, if not.
inline JobReport RunJobToItsEnd(boost::asio::io_context& io, Adapter& adapter,
                                ReportCollector& reports, JobSpec spec) {
  const JobId id = spec.id;
  reports.Submit(adapter, std::move(spec));
  EXPECT_TRUE(RunUntil(io, [&] { return reports.Has(id); }))
      << "job " << id << " did not finish in time";
  return reports.Has(id) ? reports.Get(id) : JobReport{};
}

// The Exited of a job expected to exit; code -1, and a failed expectation,
// for any other outcome.
inline Exited ExpectExited(const JobReport& report) {
  const Exited* e = AsExited(report);
  EXPECT_NE(e, nullptr) << "outcome was " << OutcomeName(report);
  if (e) return *e;
  Exited none;
  none.code = -1;
  return none;
}

}  // namespace gs

#endif  // GSRT_TESTS_SUPPORT_REPORT_COLLECTOR_H_
