#include "sim/runner/sim_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

namespace gs {

SimRow RowFromResult(std::string label, const SimResult& r) {
  SimRow row{std::move(label), {}};
  auto add = [&](const char* n, double v) { row.values.push_back({n, v}); };
  add("makespan", r.makespan);
  add("utilization", r.utilization);
  add("wasted_cpu", r.wasted_cpu);
  add("failures", static_cast<double>(r.job_failures));
  add("host_downs", static_cast<double>(r.host_downs));
  add("hosts_lost", static_cast<double>(r.hosts_lost));
  add("rt", static_cast<double>(r.rt));
  add("lr", static_cast<double>(r.lr));
  add("tasks", static_cast<double>(r.tasks));
  add("tasks_done", static_cast<double>(r.tasks_done));
  add("tasks_failed", static_cast<double>(r.tasks_failed));
  add("jobs", static_cast<double>(r.jobs));
  add("events", static_cast<double>(r.events));
  add("wall_seconds", r.wall_seconds);
  return row;
}

SimRow MeanRow(std::string label, const std::vector<SimRow>& reps) {
  SimRow out{std::move(label), {}};
  if (reps.empty()) return out;
  out.values = reps.front().values;
  for (auto& [name, v] : out.values) v = 0;
  for (const SimRow& r : reps) {
    for (size_t i = 0; i < out.values.size() && i < r.values.size(); ++i)
      out.values[i].second += r.values[i].second;
  }
  for (auto& [name, v] : out.values) v /= reps.size();
  return out;
}

namespace {

std::string Number(double v) {
  char buf[64];
  if (v == std::floor(v) && std::fabs(v) < 1e15) {
    std::snprintf(buf, sizeof buf, "%.0f", v);
  } else if (std::fabs(v) >= 1e6) {
    std::snprintf(buf, sizeof buf, "%.2f", v);
  } else {
    std::snprintf(buf, sizeof buf, "%.4g", v);
  }
  return buf;
}

}  // namespace

std::string FormatSimTable(const std::vector<SimRow>& rows) {
  if (rows.empty()) return "";
  std::vector<std::string> header{""};
  for (auto& [name, v] : rows.front().values) header.push_back(name);
  std::vector<std::vector<std::string>> cells{header};
  for (const SimRow& r : rows) {
    std::vector<std::string> line{r.label};
    for (auto& [name, v] : r.values) line.push_back(Number(v));
    cells.push_back(std::move(line));
  }
  std::vector<size_t> width(header.size(), 0);
  for (auto& line : cells)
    for (size_t i = 0; i < line.size() && i < width.size(); ++i)
      width[i] = std::max(width[i], line[i].size());
  std::string out;
  for (auto& line : cells) {
    for (size_t i = 0; i < line.size(); ++i) {
      std::string cell = line[i];
      if (i == 0) {
        cell.resize(width[i], ' ');
      } else {
        cell.insert(0, width[i] - cell.size(), ' ');
      }
      out += (i ? "  " : "") + cell;
    }
    out += "\n";
  }
  return out;
}

std::string FormatSimJson(const std::vector<SimRow>& rows) {
  auto obj = [](const SimRow& r) {
    nlohmann::ordered_json j;
    for (auto& [name, v] : r.values) j[name] = v;
    return j;
  };
  if (rows.size() == 1) return obj(rows.front()).dump() + "\n";
  nlohmann::ordered_json j;
  for (const SimRow& r : rows) j[r.label] = obj(r);
  return j.dump() + "\n";
}

}  // namespace gs
