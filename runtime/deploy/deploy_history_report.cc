#include "runtime/deploy/deploy_history_report.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "runtime/base/units.h"
#include "runtime/history/check_pace.h"

namespace gs {

namespace {

std::string ProbeFacts(const HostProbeRecord& p) {
  std::string text;
  auto add = [&text](const std::string& part) {
    text += (text.empty() ? "" : ", ") + part;
  };
  if (p.cores) add(std::to_string(*p.cores) + " cores");
  if (p.memory_available && p.memory_total) {
    add(FormatBytes(static_cast<double>(*p.memory_available)) + " of " +
        FormatBytes(static_cast<double>(*p.memory_total)) + " free");
  }
  if (p.load1) add("load " + FormatNumber(*p.load1, "%.2f"));
  if (p.bandwidth) add(FormatRate(*p.bandwidth));
  if (p.queue_wait) add("queue wait " + FormatDuration(*p.queue_wait));
  return text;
}

std::string CheckText(const HostCheck& c, const HostProbeRecord* probe) {
  std::string text = std::string(CheckSourceName(c.source)) + ": ";
  if (c.answered) {
    text += "answered";
    if (c.rtt) text += ", rtt " + FormatDuration(*c.rtt);
  } else {
    text += "NOT answered";
  }
  if (probe != nullptr) {
    const std::string facts = ProbeFacts(*probe);
    if (!facts.empty()) text += "; " + facts;
    if (!probe->error.empty()) text += "; " + probe->error;
  }
  return text;
}

std::string JobText(const JobRecord& j) {
  std::string text = "job " + std::to_string(j.job) + " (run " +
                     std::to_string(j.run) + ", task " +
                     std::to_string(j.task) + ") " + j.operation + ": " +
                     std::string(OutcomeClassName(j.outcome));
  if (j.started > 0 && j.ended > 0) {
    text += " in " + FormatDuration(j.ended - j.started);
  }
  if (!j.error.empty()) text += " (" + j.error + ")";
  if (j.replica) text += " [replica]";
  return text;
}

}  // namespace

StatusOr<HistoryListings> LoadHistoryListings(History& history,
                                              const HistoryRequest& request) {
  const HistoryFilter filter{request.host, request.since};
  HistoryListings l;
  auto checks = history.LoadHostChecks(filter);
  if (!checks.ok()) return checks.status();
  l.checks = std::move(checks).value();
  auto probes = history.LoadHostProbes(filter);
  if (!probes.ok()) return probes.status();
  l.probes = std::move(probes).value();
  auto failures = history.LoadHostFailures(filter);
  if (!failures.ok()) return failures.status();
  l.failures = std::move(failures).value();
  auto jobs = history.LoadJobs(filter);
  if (!jobs.ok()) return jobs.status();
  l.jobs = std::move(jobs).value();
  return l;
}

HistoryReport BuildHistoryReport(const HistoryListings& l,
                                 const HistoryRequest& request) {
  std::map<std::string, HostHistorySummary> hosts;
  auto summary = [&hosts](const std::string& host, Seconds time) -> auto& {
    HostHistorySummary& s = hosts[host];
    s.host = host;
    s.last = std::max(s.last, time);
    return s;
  };
  std::map<std::pair<std::string, Seconds>, const HostProbeRecord*> probes;
  for (const HostProbeRecord& p : l.probes) probes[{p.host, p.time}] = &p;

  std::vector<HistoryEvent> events;
  // Counted at their pace, as the ranking counts them (check_pace.h): a
  // burst of retries within one outage is one check. Every row is listed.
  std::map<std::string, CheckPace> paces;
  for (const HostCheck& c : l.checks) {
    HostHistorySummary& s = summary(c.host, c.time);
    CheckPace& pace = paces[c.host];
    pace.Counts(c.time, c.answered);
    s.checks = pace.attempts();
    s.not_answered = pace.not_answered();
    auto probe = probes.find({c.host, c.time});
    events.push_back(
        {c.time, c.host, HistoryEvent::Kind::kCheck,
         CheckText(c, probe == probes.end() ? nullptr : probe->second)});
  }
  for (const HostFailure& f : l.failures) {
    ++summary(f.host, f.time).failures;
    std::string what = "infrastructure failure " + f.kind;
    if (f.run != 0) what += " (run " + std::to_string(f.run) + ")";
    if (!f.detail.empty()) what += ": " + f.detail;
    events.push_back({f.time, f.host, HistoryEvent::Kind::kFailure, what});
  }
  for (const JobRecord& j : l.jobs) {
    const Seconds time = j.ended > 0 ? j.ended : j.submitted;
    HostHistorySummary& s = summary(j.host, time);
    if (j.outcome == OutcomeClass::kOk) {
      ++s.jobs_ok;
    } else if (j.outcome == OutcomeClass::kApp) {
      ++s.jobs_app;
    } else {
      ++s.jobs_other;
    }
    events.push_back({time, j.host, HistoryEvent::Kind::kJob, JobText(j)});
  }
  std::stable_sort(events.begin(), events.end(),
                   [](const HistoryEvent& a, const HistoryEvent& b) {
                     return a.time < b.time;
                   });

  HistoryReport report;
  for (auto& [name, s] : hosts) report.hosts.push_back(std::move(s));
  if (request.limit > 0 && events.size() > request.limit) {
    report.omitted = events.size() - request.limit;
    events.erase(events.begin(),
                 events.begin() + static_cast<long>(report.omitted));
  }
  report.events = std::move(events);
  return report;
}

}  // namespace gs
