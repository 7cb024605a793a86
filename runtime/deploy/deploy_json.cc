#include "runtime/deploy/deploy_json.h"

#include <nlohmann/json.hpp>

#include "runtime/base/units.h"

namespace gs {

namespace {

// Keys keep the documented order (docs/gsdeploy.md), not alphabetical.
using json = nlohmann::ordered_json;

template <typename T>
json OrNull(const std::optional<T>& value) {
  return value ? json(*value) : json(nullptr);
}

json HostJson(const RankRow& row, int position) {
  const HostFacts& f = row.facts;
  json h;
  h["name"] = row.host;
  h["adapter"] = row.adapter;
  h["eligible"] = row.rank.has_value();
  h["position"] = row.rank ? json(position) : json(nullptr);
  h["reason"] = row.rank ? json(nullptr) : json(row.ineligible);
  h["checks"] = f.attempts;
  h["not_answered"] = f.not_answered;
  h["availability"] = Availability(f.not_answered, f.attempts);
  h["distrust"] = f.distrust;
  h["probed_at"] =
      row.probed_at ? json(FormatIsoUtc(*row.probed_at)) : json(nullptr);
  h["free_memory"] = OrNull(f.free_memory);
  h["memory_total"] = OrNull(row.memory_total);
  h["cores"] = OrNull(row.cores);
  h["load1"] = OrNull(row.load1);
  h["et"] = f.et;
  h["et_basis"] = EtBasisName(row.et_basis);
  h["et_samples"] = row.et_samples;
  h["latency"] = f.latency;
  h["bandwidth"] = f.bandwidth > 0 ? json(f.bandwidth) : json(nullptr);
  h["delta"] = f.queue_wait;
  h["delta_source"] = DeltaSourceName(row.delta_source);
  h["delta_basis"] = row.delta_basis;
  if (row.rank) {
    h["ftt"] = row.rank->ftt;
    h["time"] = row.rank->time;
    h["rrank"] = row.rank->rrank;
    h["prank"] = row.rank->prank;
    h["grank"] = row.rank->grank;
  } else {
    for (const char* key : {"ftt", "time", "rrank", "prank", "grank"}) {
      h[key] = nullptr;
    }
  }
  return h;
}

}  // namespace

std::string RankReportJson(const RankReport& report,
                           const std::string& history) {
  const RankRequest& q = report.request;
  json j;
  j["schema"] = kRankJsonSchema;
  j["history"] = history;
  j["operation"] = q.operation.empty() ? json(nullptr) : json(q.operation);
  j["weights"] = {{"alpha", q.weights.alpha},
                  {"beta", q.weights.beta},
                  {"mu", q.weights.mu},
                  {"gamma", q.weights.gamma}};
  j["order"] = q.order == ReliabilityOrder::kAvailabilityFirst
                   ? "availability_first"
                   : "distrust_first";
  j["required_memory"] = q.required_memory;
  j["volume"] = {{"bytes", report.volume}, {"source", report.volume_source}};
  j["hosts"] = json::array();
  int position = 0;
  for (const RankRow& row : report.rows) {
    j["hosts"].push_back(HostJson(row, row.rank ? ++position : 0));
  }
  j["notes"] = report.notes;
  // Replace, not throw, if a name from the command line is not UTF-8.
  return j.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace gs
