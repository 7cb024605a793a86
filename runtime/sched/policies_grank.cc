#include "runtime/sched/policies_grank.h"

#include <algorithm>
#include <string>

namespace gs {

const HostFacts& GrankPolicy::FactsOf(HostId h) const {
  static const HostFacts kUnknown;  // fully available, trusted
  return h < reliability_.size() ? reliability_[h] : kUnknown;
}

void GrankPolicy::FillEligible(const SlotBoard& board, Eligible* e) {
  if (name_rank_.size() != board.num_hosts()) {
    // RankHosts' last tie-break compares host names, which here are the
    // decimal indices ("10" < "9"): their places in that order.
    std::vector<std::string> names(board.num_hosts());
    std::vector<HostId> by_name(board.num_hosts());
    for (HostId h = 0; h < board.num_hosts(); ++h) {
      names[h] = std::to_string(h);
      by_name[h] = h;
    }
    std::sort(by_name.begin(), by_name.end(),
              [&](HostId a, HostId b) { return names[a] < names[b]; });
    name_rank_.resize(board.num_hosts());
    for (uint32_t p = 0; p < by_name.size(); ++p) name_rank_[by_name[p]] = p;
  }
  e->hosts.clear();
  e->rrank.clear();
  for (HostId h = 0; h < board.num_hosts(); ++h) {
    if (!board.Fits(h, e->need)) continue;
    if (!IneligibleReason(FactsOf(h), options_).empty()) continue;
    e->hosts.push_back(h);
  }
  // rrank = 1 + hosts strictly less reliable: sorted least reliable first,
  // a host's rank is one more than the position of the first host it ties
  // with.
  const size_t n = e->hosts.size();
  std::vector<uint32_t> order(n);
  for (uint32_t i = 0; i < n; ++i) order[i] = i;
  auto less_reliable = [&](uint32_t a, uint32_t b) {
    return MoreReliable(FactsOf(e->hosts[b]), FactsOf(e->hosts[a]),
                        options_.order);
  };
  std::sort(order.begin(), order.end(), less_reliable);
  e->rrank.resize(n);
  e->one_class = true;
  for (size_t p = 0, first = 0; p < n; ++p) {
    if (p > 0 && less_reliable(order[p - 1], order[p])) first = p;
    e->rrank[order[p]] = static_cast<int>(first) + 1;
    e->one_class = e->one_class && first == 0;
  }
  e->allowed.assign(board.num_hosts(), false);
  for (HostId h : e->hosts) e->allowed[h] = true;
}

const GrankPolicy::Eligible& GrankPolicy::EligibleFor(const SlotBoard& board,
                                                      const Need& need) {
  if (!in_round_) {
    scratch_.need = need;
    FillEligible(board, &scratch_);
    return scratch_;
  }
  for (const Eligible& e : round_) {
    if (e.need == need) return e;
  }
  round_.push_back({need, {}, {}, {}, false});
  FillEligible(board, &round_.back());
  return round_.back();
}

void GrankPolicy::BeginRound(const SlotBoard& board,
                             const Predictor& predictor) {
  in_round_ = true;
  // Which hosts fit a need depends only on their slots, memory and GPUs.
  const auto begins = board.begins();
  new_fits_.clear();
  for (HostId h = 0; h < board.num_hosts(); ++h)
    new_fits_.push_back({begins[h + 1] - begins[h], board.memory_capacity(h),
                         board.gpu_capacity(h)});
  if (new_fits_ != fits_) {
    round_.clear();
    fits_.swap(new_fits_);
    forget_ = true;
  }
  if (forget_) index_.ForgetRounds();
  forget_ = false;
  index_.Build(board, predictor);
}

void GrankPolicy::EndRound() {
  index_.EndRound();
  in_round_ = false;
}

Policy::Choice GrankPolicy::Choose(const ReadyTask& task,
                                   const SlotBoard& board,
                                   const Predictor& predictor) {
  const Eligible& e = EligibleFor(board, task.need);
  const size_t n = e.hosts.size();
  if (n == 0) return {};
  if (in_round_ && e.one_class && options_.beta >= 0 && index_.has_model()) {
    // Every grank differs by beta * prank only, which grows as Time falls:
    // the least Time wins (ties by name, as RankHosts breaks them).
    FinishIndex::Best b = index_.FindLeastTime(
        task, options_.mu, options_.gamma, e.allowed, name_rank_);
    if (b.host != kNoHost) {
      return {b.host, board.EarliestFor(b.host, task.need) +
                          predictor.ExecTime(task.op, b.host) +
                          predictor.TransferTime(task.id, b.host)};
    }
  }
  // Eq. 4 as PredictedTime computes it: FTT is the transfer time (no
  // bandwidth term), delta the wait for the host's slots.
  times_.resize(n);
  for (size_t i = 0; i < n; ++i) {
    const HostId h = e.hosts[i];
    const Seconds et = predictor.ExecTime(task.op, h);
    const Seconds ftt = predictor.TransferTime(task.id, h);
    const Seconds wait =
        std::max(0.0, board.EarliestFor(h, task.need) - board.now());
    times_[i] = options_.mu * et + options_.gamma * ftt + wait;
  }
  // The best of each reliability class (same rrank) has the least Time
  // (then the least name) when beta >= 0: its prank, so its grank, is the
  // class's greatest. Only those candidates get a prank; with beta < 0
  // every host is one.
  auto name_less = [&](uint32_t a, uint32_t b) {
    return name_rank_[e.hosts[a]] < name_rank_[e.hosts[b]];
  };
  candidates_.clear();
  if (options_.beta >= 0) {
    constexpr uint32_t kNone = static_cast<uint32_t>(-1);
    class_best_.assign(n + 1, kNone);
    for (uint32_t i = 0; i < n; ++i) {
      uint32_t& c = class_best_[e.rrank[i]];
      if (c == kNone || times_[i] < times_[c] ||
          (times_[i] == times_[c] && name_less(i, c)))
        c = i;
    }
    for (uint32_t c : class_best_)
      if (c != kNone) candidates_.push_back(c);
  } else {
    for (uint32_t i = 0; i < n; ++i) candidates_.push_back(i);
  }
  // prank = 1 + hosts with a strictly larger Time: with the candidates by
  // Time, each host adds one to the candidates faster than it.
  std::sort(candidates_.begin(), candidates_.end(),
            [&](uint32_t a, uint32_t b) { return times_[a] < times_[b]; });
  candidate_times_.clear();
  for (uint32_t c : candidates_) candidate_times_.push_back(times_[c]);
  slower_.assign(candidates_.size() + 1, 0);
  for (size_t j = 0; j < n; ++j) {
    ++slower_[std::lower_bound(candidate_times_.begin(), candidate_times_.end(),
                               times_[j]) -
              candidate_times_.begin()];
  }
  // RankHosts' order: grank descending, rrank descending, Time ascending,
  // name ascending; only its first is needed.
  size_t best = n;
  double best_grank = 0;
  int above = 0;  // hosts slower than the candidate at q
  for (size_t q = candidates_.size(); q-- > 0;) {
    above += slower_[q + 1];
    const uint32_t i = candidates_[q];
    const double grank =
        options_.alpha * e.rrank[i] + options_.beta * (above + 1);
    bool better = best == n;
    if (!better && grank != best_grank) {
      better = grank > best_grank;
    } else if (!better && e.rrank[i] != e.rrank[best]) {
      better = e.rrank[i] > e.rrank[best];
    } else if (!better && times_[i] != times_[best]) {
      better = times_[i] < times_[best];
    } else if (!better) {
      better = name_less(i, static_cast<uint32_t>(best));
    }
    if (better) {
      best = i;
      best_grank = grank;
    }
  }
  const HostId host = e.hosts[best];
  Seconds end = board.EarliestFor(host, task.need) +
                predictor.ExecTime(task.op, host) +
                predictor.TransferTime(task.id, host);
  return {host, end};
}

std::unique_ptr<Policy> MakeGrankPolicy(RankOptions options) {
  return std::make_unique<GrankPolicy>(options);
}

}  // namespace gs
