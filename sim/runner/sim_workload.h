// Workloads for simulated runs (gsrt-sim, paper experiments): the calls a
// master program makes, with what each costs on each simulated host. A
// SimWorkload is at once the master's program (Submit* on an Engine), the
// sim adapter's work model and the engine's execution-time oracle, so the
// scheduler predicts with the same times the simulation charges (the
// papers' schedulers know the ETC).
//
// Every distinct task kind is an operation named "t<k>" with one `in int
// task` parameter (k), then its File parameters; iterations (paper 002) use
// one operation "iter" with `in int iteration` and `in int member`.
#ifndef GSRT_SIM_RUNNER_SIM_WORKLOAD_H_
#define GSRT_SIM_RUNNER_SIM_WORKLOAD_H_

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "adapters/simulated/sim_world.h"
#include "gs/gs_abi.h"
#include "runtime/sched/exec_oracle.h"
#include "sim/instances/etc_matrix.h"
#include "sim/instances/stg_graph.h"

namespace gs {

class Engine;

class SimWorkload : public SimWorkModel, public ExecOracle {
 public:
  explicit SimWorkload(size_t hosts) : hosts_(hosts) {}

  // --- Building ---
  struct FileArg {
    std::string path;
    gs_dir dir = GS_DIR_IN;
    uint64_t bytes = 0;  // of an output
  };
  // Adds an operation whose time on host h is `times[h]`; returns its k.
  uint32_t AddOp(std::vector<Seconds> times, std::vector<FileArg> files);
  // Adds an operation whose time on host h is work / speed[h] (see
  // set_speeds): no ops x hosts table, for large runs.
  uint32_t AddOpWork(Seconds work, std::vector<FileArg> files);
  void set_speeds(std::vector<double> speeds) { speeds_ = std::move(speeds); }
  // The iteration operation (paper 002): m tightly-coupled tasks, `times`
  // per host.
  void SetIteration(uint32_t m, std::vector<Seconds> times);

  // --- The master program ---
  // Submits every operation once, in the order added (a DAG's are added
  // in a topological order).
  void SubmitAll(Engine& engine) const;
  // Submits the m tasks of iteration `it`.
  void SubmitIteration(Engine& engine, uint32_t it) const;
  size_t num_ops() const { return ops_.size(); }
  uint32_t iteration_size() const { return iter_m_; }

  // --- SimWorkModel ---
  Seconds ExecTime(const JobSpec& spec, uint32_t host) const override;
  uint64_t OutputBytes(const JobSpec& spec, size_t param) const override;
  Gang GangOf(const JobSpec& spec) const override;

  // --- ExecOracle ---
  int64_t OpIndex(std::string_view name) const override;
  Seconds Time(int64_t op, uint32_t host) const override;
  std::span<const double> speeds() const override { return speeds_; }
  Seconds Work(int64_t op) const override;

 private:
  struct Op {
    std::string name;
    std::vector<gs_param_desc> params;
    std::vector<std::string> files;   // paths, in parameter order after k
    std::vector<uint64_t> out_bytes;  // per parameter position of the job
    gs_operation desc{};
    Seconds work = 0;  // when timed by speeds
  };
  int64_t IndexOf(const std::string& name) const;
  uint32_t Add(std::unique_ptr<Op> op);

  size_t hosts_;
  std::vector<std::unique_ptr<Op>> ops_;
  std::vector<Seconds> times_;      // k * hosts + h, for ops with a table
  std::vector<int64_t> table_row_;  // per op: its row in times_, or -1
  std::vector<double> speeds_;
  std::unordered_map<std::string, int64_t> index_;
  uint32_t iter_m_ = 0;
  std::unique_ptr<Op> iter_;
  std::vector<Seconds> iter_times_;
};

// An ETC instance as a bag of independent tasks, in file order.
std::shared_ptr<SimWorkload> EtcWorkload(const EtcMatrix& etc);

// A DAG from an STG graph (paper 000): each real task an operation whose
// time on host h is its processing time times a factor drawn uniformly in
// [0.5, 1.5]; each edge a file of bytes drawn so that its transfer takes
// ccr x (mean time of the producer) x U[0, 2] at `bandwidth`. Tasks whose
// only successor is the exit write a result file. Submitted in topological
// order. `mean_cp` gets the critical path length over mean times (NSL's
// denominator).
std::shared_ptr<SimWorkload> StgWorkload(const StgGraph& graph, size_t hosts,
                                         uint64_t seed, double ccr,
                                         double bandwidth, Seconds* mean_cp);

// A bag of n independent tasks of work drawn uniformly in [0.5, 1.5] x
// `mean`, on hosts of the given speeds (time = work / speed).
std::shared_ptr<SimWorkload> BagWorkload(size_t n, Seconds mean,
                                         std::vector<double> speeds,
                                         uint64_t seed);

}  // namespace gs

#endif  // GSRT_SIM_RUNNER_SIM_WORKLOAD_H_
