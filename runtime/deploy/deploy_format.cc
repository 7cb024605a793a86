#include "runtime/deploy/deploy_format.h"

#include <algorithm>
#include <cstdio>

#include "runtime/base/units.h"

namespace gs {

namespace {

constexpr char kNone[] = "-";

std::string Memory(const std::optional<uint64_t>& available,
                   const std::optional<uint64_t>& total) {
  if (!available) return kNone;
  std::string text = FormatBytes(static_cast<double>(*available));
  if (total) text += " / " + FormatBytes(static_cast<double>(*total));
  return text;
}

std::string StateName(ProbeState state) {
  switch (state) {
    case ProbeState::kAnswered:
      return "yes";
    case ProbeState::kNotAnswered:
      return "NO";
    case ProbeState::kSkipped:
      return "skipped";
  }
  return "?";
}

}  // namespace

TextTable::TextTable(std::vector<std::string> header) {
  rows_.push_back(std::move(header));
}

void TextTable::Add(std::vector<std::string> row) {
  row.resize(rows_[0].size());
  rows_.push_back(std::move(row));
}

std::string TextTable::Render() const {
  std::vector<size_t> width(rows_[0].size(), 0);
  for (const auto& row : rows_) {
    for (size_t i = 0; i < row.size(); ++i) {
      width[i] = std::max(width[i], row[i].size());
    }
  }
  std::string out;
  for (const auto& row : rows_) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size())
        line += std::string(width[i] - row[i].size() + 2, ' ');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

std::string FormatProbeResults(const std::vector<HostProbeResult>& results) {
  TextTable table({"HOST", "ADAPTER", "ANSWERED", "RTT", "CORES",
                   "MEMORY FREE / TOTAL", "LOAD", "BANDWIDTH", "QUEUE WAIT"});
  int answered = 0, not_answered = 0, skipped = 0;
  std::string problems;
  for (const HostProbeResult& r : results) {
    answered += r.state == ProbeState::kAnswered;
    not_answered += r.state == ProbeState::kNotAnswered;
    skipped += r.state == ProbeState::kSkipped;
    std::vector<std::string> row = {
        r.host, r.adapter.empty() ? kNone : r.adapter, StateName(r.state)};
    if (r.facts) {
      const HostProbe& f = *r.facts;
      row.push_back(FormatDuration(f.rtt));
      row.push_back(f.cores > 0 ? std::to_string(f.cores) : kNone);
      row.push_back(f.memory_total > 0
                        ? Memory(f.memory_available, f.memory_total)
                        : kNone);
      row.push_back(FormatNumber(f.load1, "%.2f"));
      row.push_back(f.bandwidth > 0  ? FormatRate(f.bandwidth)
                    : r.shares_files ? "shared files"
                                     : kNone);
      row.push_back(f.queue_wait < 0 ? kNone
                    : f.queue_wait_basis.empty()
                        ? FormatDuration(f.queue_wait)
                        : FormatDuration(f.queue_wait) + " (" +
                              f.queue_wait_basis + ")");
    }
    table.Add(std::move(row));
    if (r.error.empty()) continue;
    // A message of several lines (a failing setup's output) stays under
    // its host.
    std::string error = r.error;
    for (size_t nl = error.find('\n'); nl != std::string::npos;
         nl = error.find('\n', nl + 5)) {
      error.insert(nl + 1, "    ");
    }
    problems += "  " + r.host + ": " + error + "\n";
  }
  std::string out = table.Render();
  if (!problems.empty()) out += "\nProblems:\n" + problems;
  out += "\n" + std::to_string(results.size()) + " host" +
         (results.size() == 1 ? "" : "s") + ": " + std::to_string(answered) +
         " answered, " + std::to_string(not_answered) + " did not answer";
  if (skipped > 0) {
    out += ", " + std::to_string(skipped) +
           " skipped (no adapter in this build; not recorded)";
  }
  return out + "\n";
}

std::string FormatRankReport(const RankReport& report) {
  const RankRequest& q = report.request;
  std::string out =
      "Ranking" +
      (q.operation.empty() ? std::string(" (no --op: ET = 0)")
                           : " for operation '" + q.operation + "'") +
      ": alpha " + FormatNumber(q.weights.alpha, "%g") + ", beta " +
      FormatNumber(q.weights.beta, "%g") + ", mu " +
      FormatNumber(q.weights.mu, "%g") + ", gamma " +
      FormatNumber(q.weights.gamma, "%g") + "; vol " +
      FormatBytes(report.volume) + " (" + report.volume_source + ")";
  if (q.required_memory > 0) {
    out +=
        "; memory need " + FormatBytes(static_cast<double>(q.required_memory));
  }
  out += "\n\n";
  TextTable table({"#", "HOST", "AVAIL", "DISTRUST", "FREE MEM", "ET", "FTT",
                   "DELTA", "TIME", "RRANK", "PRANK", "GRANK"});
  std::string ineligible;
  int position = 0;
  for (const RankRow& row : report.rows) {
    const HostFacts& f = row.facts;
    if (!row.rank) {
      ineligible += "  " + row.host + ": " + row.ineligible + "\n";
      continue;
    }
    const HostRank& r = *row.rank;
    table.Add(
        {std::to_string(++position), row.host,
         FormatNumber(r.availability, "%.2f") + " (" +
             std::to_string(f.attempts - f.not_answered) + "/" +
             std::to_string(f.attempts) + ")",
         std::to_string(r.distrust),
         f.free_memory ? FormatBytes(static_cast<double>(*f.free_memory))
                       : kNone,
         FormatDuration(f.et), FormatDuration(r.ftt),
         FormatDuration(f.queue_wait) +
             (row.delta_source == DeltaSource::kNone
                  ? ""
                  : " (" + std::string(DeltaSourceName(row.delta_source)) +
                        (row.delta_basis.empty() ? ""
                                                 : ": " + row.delta_basis) +
                        ")"),
         FormatDuration(r.time), std::to_string(r.rrank),
         std::to_string(r.prank), FormatNumber(r.grank, "%g")});
  }
  out += table.Render();
  if (!ineligible.empty()) out += "\nIneligible:\n" + ineligible;
  if (!report.notes.empty()) {
    out += "\nNotes:\n";
    for (const std::string& note : report.notes) out += "  " + note + "\n";
  }
  return out;
}

std::string FormatHistoryReport(const HistoryReport& report) {
  if (report.hosts.empty()) return "No recorded events.\n";
  TextTable summary({"HOST", "CHECKS", "NOT ANSWERED", "AVAIL", "FAILURES",
                     "JOBS OK", "APP FAILED", "OTHER", "LAST EVENT"});
  for (const HostHistorySummary& h : report.hosts) {
    summary.Add(
        {h.host, std::to_string(h.checks), std::to_string(h.not_answered),
         h.checks > 0
             ? FormatNumber(
                   1.0 - static_cast<double>(h.not_answered) / h.checks, "%.2f")
             : kNone,
         std::to_string(h.failures), std::to_string(h.jobs_ok),
         std::to_string(h.jobs_app), std::to_string(h.jobs_other),
         FormatTimestamp(h.last)});
  }
  std::string out = summary.Render() + "\n";
  if (report.omitted > 0) {
    out += "(" + std::to_string(report.omitted) +
           " older events not shown; --limit 0 shows all)\n";
  }
  TextTable events({"TIME", "HOST", "EVENT"});
  for (const HistoryEvent& e : report.events) {
    events.Add({FormatTimestamp(e.time), e.host, e.what});
  }
  return out + events.Render();
}

std::string FormatSetupResults(const std::vector<SetupHostResult>& results) {
  TextTable table(
      {"HOST", "FILES", "PROGRAM", "STATE", "PATH ON HOST", "VERSION"});
  std::string problems;
  std::string unsupported;
  int ready = 0;
  for (const SetupHostResult& r : results) {
    const std::string files = r.shares_files ? "shared" : "copied";
    if (r.ready()) ++ready;
    if (!r.unsupported.empty()) {
      table.Add({r.host, kNone, kNone, "NOT SUPPORTED"});
      unsupported += "  " + r.host + ": " + r.unsupported + "\n";
      continue;
    }
    if (!r.error.empty()) {
      table.Add({r.host, files, kNone, "UNREACHABLE"});
      problems += "  " + r.host + ": " + r.error + "\n";
      continue;
    }
    for (const SetupHostResult::Program& p : r.programs) {
      const std::string state = !p.ok              ? "MISSING"
                                : p.check.uploaded ? "installed"
                                                   : "ok";
      table.Add({r.host, files, p.program.role, state, p.program.host_path,
                 p.ok ? p.check.version : kNone});
      if (!p.ok) {
        problems +=
            "  " + r.host + ": " + p.program.role + ": " + p.problem + "\n";
      }
    }
  }
  std::string out = table.Render();
  if (!problems.empty()) out += "\nMissing or not starting:\n" + problems;
  if (!unsupported.empty()) out += "\nNot supported:\n" + unsupported;
  return out + "\n" + std::to_string(ready) + " of " +
         std::to_string(results.size()) + " hosts ready\n";
}

}  // namespace gs
