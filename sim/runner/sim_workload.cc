#include "sim/runner/sim_workload.h"

#include <algorithm>
#include <cstdlib>
#include <queue>
#include <random>

#include "runtime/engine/engine.h"

namespace gs {

namespace {

double Uniform(std::mt19937_64& rng) {
  return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

}  // namespace

uint32_t SimWorkload::Add(std::unique_ptr<Op> op) {
  uint32_t k = static_cast<uint32_t>(ops_.size());
  op->name = "t" + std::to_string(k);
  op->params.insert(op->params.begin(), {"task", GS_TYPE_INT, GS_DIR_IN});
  op->desc.name = op->name.c_str();
  op->desc.return_type = GS_TYPE_VOID;
  op->desc.num_params = static_cast<int>(op->params.size());
  op->desc.params = op->params.data();
  index_.emplace(op->name, k);
  ops_.push_back(std::move(op));
  return k;
}

namespace {

void AddFiles(const std::vector<SimWorkload::FileArg>& files,
              std::vector<gs_param_desc>* params,
              std::vector<std::string>* paths,
              std::vector<uint64_t>* out_bytes) {
  out_bytes->assign(files.size() + 1, 0);
  for (size_t i = 0; i < files.size(); ++i) {
    params->push_back({"file", GS_TYPE_FILE, files[i].dir});
    paths->push_back(files[i].path);
    (*out_bytes)[i + 1] = files[i].bytes;
  }
}

}  // namespace

uint32_t SimWorkload::AddOp(std::vector<Seconds> times,
                            std::vector<FileArg> files) {
  auto op = std::make_unique<Op>();
  AddFiles(files, &op->params, &op->files, &op->out_bytes);
  table_row_.push_back(static_cast<int64_t>(times_.size() / hosts_));
  times.resize(hosts_, 0);
  times_.insert(times_.end(), times.begin(), times.end());
  return Add(std::move(op));
}

uint32_t SimWorkload::AddOpWork(Seconds work, std::vector<FileArg> files) {
  auto op = std::make_unique<Op>();
  AddFiles(files, &op->params, &op->files, &op->out_bytes);
  op->work = work;
  table_row_.push_back(-1);
  return Add(std::move(op));
}

void SimWorkload::SetIteration(uint32_t m, std::vector<Seconds> times) {
  iter_m_ = m;
  iter_times_ = std::move(times);
  iter_ = std::make_unique<Op>();
  iter_->name = "iter";
  iter_->params = {{"iteration", GS_TYPE_INT, GS_DIR_IN},
                   {"member", GS_TYPE_INT, GS_DIR_IN}};
  iter_->desc.name = iter_->name.c_str();
  iter_->desc.return_type = GS_TYPE_VOID;
  iter_->desc.num_params = 2;
  iter_->desc.params = iter_->params.data();
}

void SimWorkload::SubmitAll(Engine& engine) const {
  std::vector<gs_arg> args;
  for (size_t k = 0; k < ops_.size(); ++k) {
    const Op& op = *ops_[k];
    args.assign(op.params.size(), gs_arg{});
    args[0].i = static_cast<long long>(k);
    for (size_t j = 0; j < op.files.size(); ++j)
      args[j + 1].str = op.files[j].c_str();
    engine.Submit(&op.desc, args.data());
  }
}

void SimWorkload::SubmitIteration(Engine& engine, uint32_t it) const {
  for (uint32_t i = 0; i < iter_m_; ++i) {
    gs_arg args[2] = {};
    args[0].i = it;
    args[1].i = i;
    engine.Submit(&iter_->desc, args);
  }
}

int64_t SimWorkload::IndexOf(const std::string& name) const {
  auto it = index_.find(name);
  return it == index_.end() ? -1 : it->second;
}

int64_t SimWorkload::OpIndex(std::string_view name) const {
  if (name == "iter" && iter_) return static_cast<int64_t>(ops_.size());
  return IndexOf(std::string(name));
}

Seconds SimWorkload::Time(int64_t k, uint32_t host) const {
  if (k == static_cast<int64_t>(ops_.size())) return iter_times_[host];
  int64_t row = table_row_[k];
  if (row >= 0) return times_[row * hosts_ + host];
  return ops_[k]->work / speeds_[host];
}

Seconds SimWorkload::Work(int64_t k) const {
  if (k < 0 || k >= static_cast<int64_t>(ops_.size()) || table_row_[k] >= 0)
    return -1;  // the iteration, or an op with a table of times
  return ops_[k]->work;
}

Seconds SimWorkload::ExecTime(const JobSpec& spec, uint32_t host) const {
  int64_t k = OpIndex(spec.operation);
  return k < 0 ? 0 : Time(k, host);
}

uint64_t SimWorkload::OutputBytes(const JobSpec& spec, size_t param) const {
  int64_t k = IndexOf(spec.operation);
  if (k < 0) return 0;
  const auto& bytes = ops_[k]->out_bytes;
  return param < bytes.size() ? bytes[param] : 0;
}

SimWorkModel::Gang SimWorkload::GangOf(const JobSpec& spec) const {
  if (spec.operation != "iter" || spec.params.empty()) return {};
  return {"iter#" + spec.params[0].value, iter_m_};
}

std::shared_ptr<SimWorkload> EtcWorkload(const EtcMatrix& etc) {
  auto wl = std::make_shared<SimWorkload>(etc.machines);
  for (size_t t = 0; t < etc.tasks; ++t) {
    std::vector<Seconds> row(etc.values.begin() + t * etc.machines,
                             etc.values.begin() + (t + 1) * etc.machines);
    wl->AddOp(std::move(row), {});
  }
  return wl;
}

std::shared_ptr<SimWorkload> StgWorkload(const StgGraph& g, size_t hosts,
                                         uint64_t seed, double ccr,
                                         double bandwidth, Seconds* mean_cp) {
  std::mt19937_64 rng(seed * 0x2545F4914F6CDD1Dull + 17);
  const uint32_t n = static_cast<uint32_t>(g.tasks.size());
  std::vector<std::vector<Seconds>> times(n, std::vector<Seconds>(hosts, 0));
  std::vector<Seconds> mean(n, 0);
  for (uint32_t i = 0; i < n; ++i) {
    if (g.is_dummy(i)) continue;
    for (size_t h = 0; h < hosts; ++h) {
      times[i][h] = g.tasks[i].processing_time * (0.5 + Uniform(rng));
      mean[i] += times[i][h] / hosts;
    }
  }
  auto succs = StgSuccessors(g);
  // Edge sizes, drawn in (producer, consumer) order.
  std::vector<std::vector<uint64_t>> bytes(n);
  for (uint32_t i = 0; i < n; ++i) {
    for (uint32_t s : succs[i]) {
      double secs = ccr * mean[i] * 2 * Uniform(rng);
      bytes[i].push_back(static_cast<uint64_t>(secs * bandwidth));
    }
  }
  // Critical path over mean times (no communication): NSL's denominator.
  std::vector<Seconds> finish(n, 0);
  Seconds cp = 0;
  std::vector<uint32_t> indeg(n, 0), order;
  for (uint32_t i = 0; i < n; ++i) indeg[i] = g.tasks[i].preds.size();
  std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<>> q;
  for (uint32_t i = 0; i < n; ++i)
    if (indeg[i] == 0) q.push(i);
  while (!q.empty()) {
    uint32_t i = q.top();
    q.pop();
    order.push_back(i);
    Seconds start = 0;
    for (uint32_t p : g.tasks[i].preds) start = std::max(start, finish[p]);
    finish[i] = start + mean[i];
    cp = std::max(cp, finish[i]);
    for (uint32_t s : succs[i])
      if (--indeg[s] == 0) q.push(s);
  }
  if (mean_cp) *mean_cp = cp;
  auto edge = [](uint32_t a, uint32_t b) {
    return "e" + std::to_string(a) + "_" + std::to_string(b);
  };
  auto wl = std::make_shared<SimWorkload>(hosts);
  for (uint32_t i : order) {
    if (g.is_dummy(i)) continue;
    std::vector<SimWorkload::FileArg> files;
    for (uint32_t p : g.tasks[i].preds) {
      if (!g.is_dummy(p)) files.push_back({edge(p, i), GS_DIR_IN, 0});
    }
    bool result = true;
    for (size_t j = 0; j < succs[i].size(); ++j) {
      uint32_t s = succs[i][j];
      if (g.is_dummy(s)) continue;
      result = false;
      files.push_back({edge(i, s), GS_DIR_OUT, bytes[i][j]});
    }
    if (result) {
      files.push_back({"r" + std::to_string(i), GS_DIR_OUT,
                       bytes[i].empty() ? 0 : bytes[i][0]});
    }
    wl->AddOp(times[i], std::move(files));
  }
  return wl;
}

std::shared_ptr<SimWorkload> BagWorkload(size_t n, Seconds mean,
                                         std::vector<double> speeds,
                                         uint64_t seed) {
  std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ull + 3);
  auto wl = std::make_shared<SimWorkload>(speeds.size());
  wl->set_speeds(std::move(speeds));
  for (size_t i = 0; i < n; ++i) wl->AddOpWork(mean * (0.5 + Uniform(rng)), {});
  return wl;
}

}  // namespace gs
