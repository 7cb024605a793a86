#include "runtime/history/history_records.h"

#include <cstdio>
#include <string>
#include <type_traits>
#include <variant>

namespace gs {

std::string_view OutcomeClassName(OutcomeClass outcome) {
  switch (outcome) {
    case OutcomeClass::kOk:
      return "ok";
    case OutcomeClass::kApp:
      return "app";
    case OutcomeClass::kInfra:
      return "infra";
    case OutcomeClass::kTimeout:
      return "timeout";
    case OutcomeClass::kCancelled:
      return "cancelled";
  }
  return "?";
}

std::optional<OutcomeClass> ParseOutcomeClass(std::string_view name) {
  for (OutcomeClass c :
       {OutcomeClass::kOk, OutcomeClass::kApp, OutcomeClass::kInfra,
        OutcomeClass::kTimeout, OutcomeClass::kCancelled}) {
    if (OutcomeClassName(c) == name) return c;
  }
  return std::nullopt;
}

std::string_view RunStatusName(RunStatus status) {
  switch (status) {
    case RunStatus::kRunning:
      return "running";
    case RunStatus::kOk:
      return "ok";
    case RunStatus::kFailed:
      return "failed";
    case RunStatus::kCancelled:
      return "cancelled";
  }
  return "?";
}

std::string_view CheckSourceName(CheckSource source) {
  return source == CheckSource::kProbe ? "probe" : "runtime";
}

JobRecord JobRecordFromReport(RunId run, const JobSpec& spec,
                              std::string_view host, const JobReport& report,
                              bool replica) {
  JobRecord r;
  r.run = run;
  r.task = spec.task;
  r.job = report.id;
  r.operation = spec.operation;
  r.host = std::string(host);
  r.submitted = report.submitted;
  r.started = report.started;
  r.ended = report.ended;
  r.replica = replica;
  std::visit(
      [&r](const auto& o) {
        using T = std::decay_t<decltype(o)>;
        if constexpr (std::is_same_v<T, Exited>) {
          r.outcome = o.succeeded() ? OutcomeClass::kOk : OutcomeClass::kApp;
          r.exit_code = o.code;
          r.error = o.error;
          if (r.outcome == OutcomeClass::kApp && r.error.empty()) {
            r.error = "exit code " + std::to_string(o.code);
          }
          r.bytes_in = o.bytes_in;
          r.bytes_out = o.bytes_out;
          r.usage = o.usage;
          r.log_dir = o.log_dir;
        } else if constexpr (std::is_same_v<T, HostFailed>) {
          r.outcome = OutcomeClass::kInfra;
          r.error = o.reason;
        } else if constexpr (std::is_same_v<T, TimedOut>) {
          r.outcome = OutcomeClass::kTimeout;
          char limit[32];
          std::snprintf(limit, sizeof limit, "%g", o.limit);
          r.error =
              std::string("killed after the time limit of ") + limit + " s";
          r.log_dir = o.log_dir;
        } else {
          static_assert(std::is_same_v<T, Cancelled>);
          r.outcome = OutcomeClass::kCancelled;
        }
      },
      report.outcome);
  return r;
}

}  // namespace gs
