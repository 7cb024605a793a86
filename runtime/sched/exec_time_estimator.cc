#include "runtime/sched/exec_time_estimator.h"

#include <cassert>
#include <cmath>

namespace gs {

uint32_t ExecTimeEstimator::Names::Intern(std::string_view name) {
  if (auto it = ids.find(name); it != ids.end()) return it->second;
  uint32_t id = static_cast<uint32_t>(names.size());
  names.emplace_back(name);
  ids.emplace(names.back(), id);
  return id;
}

std::optional<uint32_t> ExecTimeEstimator::Names::Find(
    std::string_view name) const {
  if (auto it = ids.find(name); it != ids.end()) return it->second;
  return std::nullopt;
}

ExecTimeEstimator::ExecTimeEstimator(ExecTimeOptions options)
    : options_(options) {
  assert(options_.window > 0);
}

OpId ExecTimeEstimator::InternOp(std::string_view name) {
  OpId id = ops_.Intern(name);
  if (stats_.size() <= id) stats_.resize(id + 1);
  return id;
}

HostId ExecTimeEstimator::InternHost(std::string_view name) {
  return hosts_.Intern(name);
}

std::optional<OpId> ExecTimeEstimator::FindOp(std::string_view name) const {
  return ops_.Find(name);
}

std::optional<HostId> ExecTimeEstimator::FindHost(std::string_view name) const {
  return hosts_.Find(name);
}

void ExecTimeEstimator::Observe(OpId op, HostId host, Seconds seconds) {
  assert(op < stats_.size() && host < hosts_.names.size());
  if (!std::isfinite(seconds) || seconds < 0) return;
  OpStats& stats = stats_[op];
  if (stats.by_host.size() <= host) stats.by_host.resize(host + 1);
  Window& w = stats.by_host[host];

  const bool had_data = !w.values.empty();
  const double old_mean = had_data ? w.mean() : 0;
  const size_t window = static_cast<size_t>(options_.window);
  if (w.values.size() < window) {
    w.values.push_back(seconds);
  } else {
    w.values[w.next] = seconds;
    w.next = (w.next + 1) % window;
  }
  // Summing the (small) window again keeps the mean exact, unlike a running
  // sum that would drift over millions of jobs.
  w.sum = 0;
  for (double v : w.values) w.sum += v;

  stats.sum_of_means += w.mean() - old_mean;
  if (!had_data) ++stats.hosts_with_data;
}

void ExecTimeEstimator::Observe(std::string_view op, std::string_view host,
                                Seconds seconds) {
  Observe(InternOp(op), InternHost(host), seconds);
}

void ExecTimeEstimator::Seed(std::span<const ExecTimeSample> samples) {
  // Keys are independent, so walking the whole list backwards feeds every
  // (op, host) oldest first.
  for (auto it = samples.rbegin(); it != samples.rend(); ++it) {
    Observe(it->operation, it->host, it->seconds);
  }
}

ExecTimeEstimator::Prediction ExecTimeEstimator::Explain(OpId op,
                                                         HostId host) const {
  if (op >= stats_.size() || stats_[op].hosts_with_data == 0) {
    return {options_.unknown_default, Basis::kDefault, 0};
  }
  const OpStats& stats = stats_[op];
  if (host < stats.by_host.size() && !stats.by_host[host].values.empty()) {
    const Window& w = stats.by_host[host];
    return {w.mean(), Basis::kThisHost, static_cast<int>(w.values.size())};
  }
  return {stats.sum_of_means / stats.hosts_with_data, Basis::kOtherHosts,
          stats.hosts_with_data};
}

Seconds ExecTimeEstimator::Predict(std::string_view op,
                                   std::string_view host) const {
  std::optional<OpId> op_id = FindOp(op);
  if (!op_id) return options_.unknown_default;
  std::optional<HostId> host_id = FindHost(host);
  // An unknown host has no id; any id past the known ones has no data.
  return Predict(*op_id, host_id.value_or(static_cast<HostId>(-1)));
}

int ExecTimeEstimator::SampleCount(OpId op, HostId host) const {
  if (op >= stats_.size() || host >= stats_[op].by_host.size()) return 0;
  return static_cast<int>(stats_[op].by_host[host].values.size());
}

}  // namespace gs
