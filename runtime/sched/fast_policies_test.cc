// MCT, Min-Min and grank were made fast at scale (issue 16); they must
// still decide as before. On many small random cases (heterogeneous hosts
// of 1-4 cores, some with memory, some unusable, busy jobs with needs,
// tasks needing several cores or memory, speed-model and arbitrary
// per-(op, host) times, transfers), every round of a run to the end is
// placed by the policy and by its copy of the old code
// (reference_policies_test_util.h), and the placements must be equal: the
// same tasks on the same hosts with the same predicted ends, in the same
// order. MCT, Min-Min and grank replay their previous round when the
// predictor's stamp says nothing changed (FinishIndex; Min-Min also keeps
// the queue's order, MinMinOrder): some runs change hosts, the queue and the
// predictor between rounds.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "runtime/sched/policies_grank.h"
#include "runtime/sched/policies_minmin.h"
#include "runtime/sched/reference_policies_test_util.h"
#include "runtime/sched/scheduler.h"

namespace gs {
namespace {

// Times are work[op] / speed[h] (told to the policies as a speed model when
// `model` is set) or drawn per (op, host); transfers per (task, host) when
// `transfers` is set. The stamp is fixed (0 in some cases: not known) until
// Perturb changes times.
class RandomPredictor : public Predictor {
 public:
  RandomPredictor(std::mt19937_64& rng, size_t ops, size_t hosts, size_t tasks,
                  bool model, bool integer, bool transfers, uint64_t stamp)
      : model_(model), integer_(integer), hosts_(hosts), stamp_(stamp) {
    auto draw = [&](double lo, double hi) {
      if (integer) return static_cast<double>(lo + rng() % int(hi - lo + 1));
      return lo + (hi - lo) * (static_cast<double>(rng() >> 11) * 0x1.0p-53);
    };
    for (size_t h = 0; h < hosts; ++h)
      speeds_.push_back(integer ? 1 + rng() % 3 : draw(0.5, 1.5));
    for (size_t o = 0; o < ops; ++o) work_.push_back(draw(1, 20));
    if (!model) {
      for (size_t i = 0; i < ops * hosts; ++i) table_.push_back(draw(1, 20));
    }
    if (transfers) {
      for (size_t i = 0; i < tasks * hosts; ++i)
        transfer_.push_back(rng() % 3 == 0 ? draw(0, 5) : 0);
    }
  }
  Seconds ExecTime(OpId op, HostId h) const override {
    return model_ ? work_[op] / speeds_[h] : table_[op * hosts_ + h];
  }
  Seconds TransferTime(TaskId t, HostId h) const override {
    ++calls_;
    return transfer_.empty() ? 0 : transfer_[t * hosts_ + h];
  }
  uint64_t stamp() const override { return stamp_; }
  // Other transfer times to a host or another work for an op; the stamp
  // moves unless `stale` (a planted bug: the policies must then differ).
  void Perturb(std::mt19937_64& rng, bool stale = false) {
    if (!transfer_.empty() && rng() % 2 == 0) {
      const size_t h = rng() % hosts_;
      for (size_t i = h; i < transfer_.size(); i += hosts_)
        transfer_[i] = static_cast<double>(rng() % 6);
    } else {
      work_[rng() % work_.size()] = integer_ ? 1 + rng() % 20 : 0.5 + rng() % 9;
    }
    if (!stale && stamp_ != 0) ++stamp_;
  }
  // Transfer times asked for: one per host whose end a policy computed
  // (with a speed model, the index computes execution times itself).
  uint64_t calls() const { return calls_; }
  // Every transfer 0; the stamp does not move (a planted bug).
  void ClearTransfers() { std::fill(transfer_.begin(), transfer_.end(), 0); }
  std::span<const double> speeds() const override {
    return model_ ? std::span<const double>(speeds_)
                  : std::span<const double>();
  }
  Seconds Work(OpId op) const override { return model_ ? work_[op] : -1; }

 private:
  bool model_, integer_;
  size_t hosts_;
  uint64_t stamp_;
  mutable uint64_t calls_ = 0;
  std::vector<double> speeds_, work_, table_, transfer_;
};

// Tasks a run may add between rounds (Case::dynamic).
constexpr size_t kAddedTasks = 20;

struct Case {
  std::vector<HostState> hosts;  // without the run's jobs
  std::vector<Need> needs;       // by op
  std::vector<OpId> ops;         // by task
  std::unique_ptr<RandomPredictor> predictor;
  std::vector<HostFacts> reliability;
  RankOptions rank;
  // Between rounds: hosts change, tasks are added and removed, times change.
  bool dynamic = false;
};

// `replayable`: what MCT's replay needs (a speed model, a stamp, tasks of
// one core, no memory), with more tasks than hosts, so that most rounds
// replay the last one.
Case RandomCase(uint64_t seed, bool replayable = false) {
  std::mt19937_64 rng(seed);
  Case c;
  const size_t hosts = 1 + rng() % 20;
  const size_t tasks = 1 + rng() % 60 + (replayable ? 3 * hosts : 0);
  const size_t ops = 1 + rng() % std::min<size_t>(tasks, 8);
  const bool memory = rng() % 2 == 0 && !replayable;
  for (size_t h = 0; h < hosts; ++h) {
    HostState s;
    s.slots = 1 + static_cast<int>(rng() % 4);
    s.usable = rng() % 10 != 0;
    if (memory && rng() % 3 != 0) s.memory_gb = 1 + static_cast<int>(rng() % 4);
    // Jobs of earlier work still running.
    for (int j = static_cast<int>(rng() % 3); j > 0; --j) {
      if (s.busy_cores() >= s.slots) break;
      s.AddBusy(static_cast<double>(rng() % 15), Need{});
    }
    c.hosts.push_back(s);
  }
  for (size_t o = 0; o < ops; ++o) {
    Need n;
    if (rng() % 3 == 0 && !replayable)
      n.cores = 1 + static_cast<int>(rng() % 3);
    if (memory && rng() % 3 == 0) n.memory_gb = 0.5 * (1 + rng() % 4);
    c.needs.push_back(n);
  }
  for (size_t t = 0; t < tasks; ++t) c.ops.push_back(rng() % ops);
  const bool model = rng() % 3 != 0 || replayable;
  const bool integer = rng() % 2 == 0;  // ties
  const bool transfers = rng() % 3 == 0 || (replayable && rng() % 2 == 0);
  const uint64_t stamp = rng() % 4 == 0 && !replayable ? 0 : 1;
  c.predictor = std::make_unique<RandomPredictor>(
      rng, ops, hosts, tasks + kAddedTasks, model, integer, transfers, stamp);
  for (size_t h = 0; h < hosts; ++h) {
    if (rng() % 4 == 0) continue;  // unknown host
    HostFacts f;
    f.attempts = static_cast<int64_t>(rng() % 5);
    f.not_answered = static_cast<int64_t>(rng() % 3);  // may exceed attempts
    f.distrust = static_cast<int64_t>(rng() % 3);
    if (rng() % 4 == 0) f.free_memory = rng() % 3 * 1000;
    c.reliability.resize(h + 1);
    c.reliability[h] = f;
  }
  const double weights[] = {0.5, 1, 2};
  c.rank.alpha = weights[rng() % 3];
  c.rank.beta = weights[rng() % 3];
  c.rank.required_memory = rng() % 2 ? 1500 : 0;
  c.rank.order = rng() % 2 ? ReliabilityOrder::kAvailabilityFirst
                           : ReliabilityOrder::kDistrustFirst;
  // Nothing known of any host: one reliability class (grank's fast path).
  if (rng() % 3 == 0) c.reliability.clear();
  return c;
}

std::string Describe(const std::vector<Placement>& placed) {
  std::string s;
  for (const Placement& p : placed) {
    s += std::to_string(p.task) + "->" + std::to_string(p.host) + "@" +
         std::to_string(p.predicted_end) + " ";
  }
  return s;
}

// Runs the case to the end with `fast` and `slow` side by side: a round at
// every job's end (jobs end at their predicted time), each round placed by
// both on the same state. Returns the number of rounds compared.
int CompareRuns(const Case& c, std::unique_ptr<Policy> fast,
                std::unique_ptr<Policy> slow, uint64_t seed,
                bool stale_stamp = false, uint64_t* fast_calls = nullptr,
                const std::function<void(int)>& after_round = nullptr) {
  std::mt19937_64 rng(seed * 7919);
  std::vector<HostState> hosts = c.hosts;
  TaskId next_task = static_cast<TaskId>(c.ops.size());
  fast->SetReliability(c.reliability);
  slow->SetReliability(c.reliability);
  Scheduler a(std::move(fast)), b(std::move(slow));
  for (OpId op = 0; op < c.needs.size(); ++op) {
    a.SetNeed(op, c.needs[op]);
    b.SetNeed(op, c.needs[op]);
  }
  for (TaskId t = 0; t < c.ops.size(); ++t) {
    a.AddReady(t, c.ops[t]);
    b.AddReady(t, c.ops[t]);
  }
  struct Job {
    HostId host;
    Seconds end;
    Need need;
  };
  std::vector<Job> running;
  Seconds now = 0;
  int rounds = 0;
  for (; a.num_ready() > 0 && rounds < 1000; ++rounds) {
    std::vector<HostState> states = hosts;
    for (HostState& h : states)
      std::erase_if(h.busy_until, [&](Seconds t) { return t <= now; });
    for (const Job& j : running) states[j.host].AddBusy(j.end, j.need);
    SchedulingInput in{now, &states, c.predictor.get()};
    const uint64_t calls_before = c.predictor->calls();
    std::vector<Placement> pa = a.Schedule(in);
    if (fast_calls) *fast_calls += c.predictor->calls() - calls_before;
    std::vector<Placement> pb = b.Schedule(in);
    EXPECT_EQ(Describe(pa), Describe(pb))
        << "seed " << seed << ", round " << rounds << ", now " << now;
    if (Describe(pa) != Describe(pb)) return rounds;
    for (const Placement& p : pa) {
      running.push_back({p.host, p.predicted_end, a.NeedOf(c.ops[p.task])});
    }
    // The next job's end; the hosts' own earlier jobs end too.
    Seconds next = std::numeric_limits<Seconds>::infinity();
    for (const Job& j : running) next = std::min(next, j.end);
    for (const HostState& h : hosts)
      for (Seconds t : h.busy_until)
        if (t > now) next = std::min(next, t);
    if (next == std::numeric_limits<Seconds>::infinity()) break;  // stuck
    now = std::max(now, next);
    if (after_round) after_round(rounds);
    std::erase_if(running, [&](const Job& j) { return j.end <= now; });
    if (!c.dynamic) continue;
    // Some hosts change while others do not; the queue and times change.
    switch (rng() % 8) {
      case 0: {
        HostState& h = hosts[rng() % hosts.size()];
        h.usable = !h.usable || rng() % 3 == 0;
        h.slots = 1 + static_cast<int>(rng() % 4);
        break;
      }
      case 1:
        if (next_task < c.ops.size() + kAddedTasks) {
          const OpId op = c.ops[rng() % c.ops.size()];
          a.AddReady(next_task, op);
          b.AddReady(next_task, op);
          ++next_task;
        }
        break;
      case 2: {
        const TaskId gone = static_cast<TaskId>(rng() % next_task);
        a.RemoveIf([&](TaskId t) { return t == gone; });
        b.RemoveIf([&](TaskId t) { return t == gone; });
        break;
      }
      case 3:
        c.predictor->Perturb(rng, stale_stamp);
        break;
      default:
        break;  // nothing but the job's end
    }
  }
  return rounds;
}

constexpr uint64_t kSeeds = 300;

TEST(FastPoliciesTest, MctDecidesAsBefore) {
  int rounds = 0;
  for (uint64_t seed = 1; seed <= kSeeds; ++seed) {
    Case c = RandomCase(seed);
    rounds += CompareRuns(c, MakeMctPolicy(),
                          std::make_unique<reference::Mct>(), seed);
  }
  EXPECT_GT(rounds, static_cast<int>(kSeeds));  // runs had several rounds
}

// Rounds replayed from the last one when hosts, the queue or the times
// change in between (some hosts' slots change while others' do not).
TEST(FastPoliciesTest, MctDecidesAsBeforeWhenRoundsChange) {
  int rounds = 0;
  for (uint64_t seed = 1; seed <= kSeeds; ++seed) {
    Case c = RandomCase(seed, /*replayable=*/seed % 2 == 0);
    c.dynamic = true;
    rounds += CompareRuns(c, MakeMctPolicy(),
                          std::make_unique<reference::Mct>(), seed);
  }
  EXPECT_GT(rounds, static_cast<int>(kSeeds));
}

// The predictor's calls over larger bags of heterogeneous one-slot hosts
// (where rounds reserve busy fast hosts), decided by `fast` and compared with
// `slow` as above, without a stamp (calls[0]) and with one (calls[1]).
// `own_ops`: each task its own operation (its own work), else drawn among
// 50.
template <typename Fast, typename Slow>
void CountCalls(const Fast& fast, const Slow& slow, uint64_t calls[2],
                bool own_ops = false) {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    for (uint64_t stamp = 0; stamp < 2; ++stamp) {
      std::mt19937_64 rng(seed);
      Case c;
      const size_t hosts = 30, tasks = 200, ops = own_ops ? tasks : 50;
      c.hosts.assign(hosts, HostState{});
      c.needs.assign(ops, Need{});
      for (size_t t = 0; t < tasks; ++t)
        c.ops.push_back(own_ops ? t : rng() % ops);
      c.predictor = std::make_unique<RandomPredictor>(
          rng, ops, hosts, tasks + kAddedTasks, /*model=*/true,
          /*integer=*/false, /*transfers=*/false, stamp);
      CompareRuns(c, fast(), slow(), seed, false, &calls[stamp]);
    }
  }
}

// The replay is used: MCT asks the predictor for fewer times with a stamp
// than without, and decides the same.
TEST(FastPoliciesTest, MctReplaysRoundsWhenTheStampHolds) {
  uint64_t calls[2] = {0, 0};
  CountCalls([] { return MakeMctPolicy(); },
             [] { return std::make_unique<reference::Mct>(); }, calls);
  EXPECT_LT(calls[1], calls[0] * 3 / 4) << calls[0] << " " << calls[1];
}

// The same for grank with one reliability class (nothing known of any
// host), whose Times move with `now` between the replayed rounds.
TEST(FastPoliciesTest, GrankReplaysRoundsWhenTheStampHolds) {
  uint64_t calls[2] = {0, 0};
  CountCalls([] { return MakeGrankPolicy(); },
             [] { return std::make_unique<reference::Grank>(RankOptions{}); },
             calls);
  EXPECT_LT(calls[1], calls[0] * 3 / 4) << calls[0] << " " << calls[1];
}

// A predictor whose times change without its stamp moving breaks the
// replay's premise: the tests above would catch the decisions that differ
// (this checks that such runs do differ, so the comparisons can fail).
template <typename Fast, typename Slow>
int RunsDifferingWithAStaleStamp(const Fast& fast, const Slow& slow) {
  int differing = 0;
  for (uint64_t seed = 1; seed <= kSeeds; ++seed) {
    Case c = RandomCase(seed, /*replayable=*/seed % 2 == 0);
    c.dynamic = true;
    c.reliability.clear();  // grank: one class, so it replays
    testing::TestPartResultArray failures;
    {
      testing::ScopedFakeTestPartResultReporter reporter(
          testing::ScopedFakeTestPartResultReporter::
              INTERCEPT_ONLY_CURRENT_THREAD,
          &failures);
      CompareRuns(c, fast(c), slow(c), seed, /*stale_stamp=*/true);
    }
    differing += failures.size() > 0;
  }
  return differing;
}

TEST(FastPoliciesTest, AStaleStampIsCaught) {
  EXPECT_GT(RunsDifferingWithAStaleStamp(
                [](const Case&) { return MakeMctPolicy(); },
                [](const Case&) { return std::make_unique<reference::Mct>(); }),
            0);
  EXPECT_GT(
      RunsDifferingWithAStaleStamp(
          [](const Case&) { return MakeMinMinPolicy(); },
          [](const Case&) { return std::make_unique<reference::MinMin>(); }),
      0);
}

// grank's replay computes the old host's Time afresh, so only a change on
// another host is missed: every transfer drops to 0 in the middle of runs
// whose transfers decided (larger bags, one reliability class).
TEST(FastPoliciesTest, AStaleStampIsCaughtByGrank) {
  int differing = 0;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    std::mt19937_64 rng(seed);
    Case c;
    const size_t hosts = 30, tasks = 200, ops = 50;
    c.hosts.assign(hosts, HostState{});
    c.needs.assign(ops, Need{});
    for (size_t t = 0; t < tasks; ++t) c.ops.push_back(rng() % ops);
    c.predictor = std::make_unique<RandomPredictor>(
        rng, ops, hosts, tasks + kAddedTasks, /*model=*/true,
        /*integer=*/false, /*transfers=*/true, /*stamp=*/1);
    testing::TestPartResultArray failures;
    {
      testing::ScopedFakeTestPartResultReporter reporter(
          testing::ScopedFakeTestPartResultReporter::
              INTERCEPT_ONLY_CURRENT_THREAD,
          &failures);
      CompareRuns(c, MakeGrankPolicy(),
                  std::make_unique<reference::Grank>(RankOptions{}), seed,
                  false, nullptr, [&](int round) {
                    if (round == 20) c.predictor->ClearTransfers();
                  });
    }
    differing += failures.size() > 0;
  }
  EXPECT_GT(differing, 0);
}

TEST(FastPoliciesTest, MinMinDecidesAsBefore) {
  int rounds = 0;
  for (uint64_t seed = 1; seed <= kSeeds; ++seed) {
    Case c = RandomCase(seed);
    rounds += CompareRuns(c, MakeMinMinPolicy(),
                          std::make_unique<reference::MinMin>(), seed);
  }
  EXPECT_GT(rounds, static_cast<int>(kSeeds));
}

// Min-Min keeps the queue's order by work between rounds (MinMinOrder) and
// replays the last round's steps (FinishIndex): tasks added and removed,
// hosts and times changed between rounds.
TEST(FastPoliciesTest, MinMinDecidesAsBeforeWhenRoundsChange) {
  int rounds = 0;
  for (uint64_t seed = 1; seed <= kSeeds; ++seed) {
    Case c = RandomCase(seed, /*replayable=*/seed % 2 == 0);
    c.dynamic = true;
    rounds += CompareRuns(c, MakeMinMinPolicy(),
                          std::make_unique<reference::MinMin>(), seed);
  }
  EXPECT_GT(rounds, static_cast<int>(kSeeds));
}

// With a work of its own per task: with equal works, a step looks at the
// next task of the same work before its Take (their bounds tie), which ends
// the replay for the round.
TEST(FastPoliciesTest, MinMinReplaysRoundsWhenTheStampHolds) {
  uint64_t calls[2] = {0, 0};
  CountCalls([] { return MakeMinMinPolicy(); },
             [] { return std::make_unique<reference::MinMin>(); }, calls,
             /*own_ops=*/true);
  EXPECT_LT(calls[1], calls[0] * 3 / 4) << calls[0] << " " << calls[1];
}

TEST(FastPoliciesTest, GrankDecidesAsBefore) {
  int rounds = 0;
  for (uint64_t seed = 1; seed <= kSeeds; ++seed) {
    Case c = RandomCase(seed);
    rounds += CompareRuns(c, MakeGrankPolicy(c.rank),
                          std::make_unique<reference::Grank>(c.rank), seed);
  }
  EXPECT_GT(rounds, static_cast<int>(kSeeds));
}

// grank keeps its eligible hosts between rounds while hosts fit alike, and
// with one reliability class replays its last round (every other case:
// several classes, or one class from facts alike).
TEST(FastPoliciesTest, GrankDecidesAsBeforeWhenRoundsChange) {
  int rounds = 0;
  for (uint64_t seed = 1; seed <= kSeeds; ++seed) {
    Case c = RandomCase(seed, /*replayable=*/seed % 2 == 0);
    c.dynamic = true;
    if (seed % 3 == 0) c.reliability.clear();
    rounds += CompareRuns(c, MakeGrankPolicy(c.rank),
                          std::make_unique<reference::Grank>(c.rank), seed);
  }
  EXPECT_GT(rounds, static_cast<int>(kSeeds));
}

// Whole-bag Min-Min (the ETC driver's and the batch plans' use): every
// step, reservations included, on a board of busy hosts.
TEST(FastPoliciesTest, MinMinMapMapsAsBefore) {
  for (uint64_t seed = 1; seed <= kSeeds; ++seed) {
    Case c = RandomCase(seed);
    std::vector<HostState> states = c.hosts;
    SchedulingInput in{0, &states, c.predictor.get()};
    std::vector<ReadyTask> tasks;
    for (TaskId t = 0; t < c.ops.size(); ++t)
      tasks.push_back({t, c.ops[t], c.needs[c.ops[t]]});
    SlotBoard fast_board(in), slow_board(in);
    auto fast = MinMinMap(tasks, fast_board, *c.predictor, false);
    auto slow = reference::MinMinMap(tasks, slow_board, *c.predictor, false);
    ASSERT_EQ(fast.size(), slow.size()) << "seed " << seed;
    for (size_t i = 0; i < fast.size(); ++i) {
      EXPECT_EQ(fast[i].task_index, slow[i].task_index) << "seed " << seed;
      EXPECT_EQ(fast[i].host, slow[i].host) << "seed " << seed;
      EXPECT_EQ(fast[i].end, slow[i].end) << "seed " << seed;
      EXPECT_EQ(fast[i].starts_now, slow[i].starts_now) << "seed " << seed;
    }
  }
}

}  // namespace
}  // namespace gs
