// The `sim` adapter: one simulated host of a SimWorld behind the Adapter
// seam, so the unchanged engine schedules, stages data, loses hosts and
// rewinds against simulated hosts. Jobs need no worker program: the work
// model prices them from their operation and parameters.
#ifndef GSRT_ADAPTERS_SIMULATED_SIM_ADAPTER_H_
#define GSRT_ADAPTERS_SIMULATED_SIM_ADAPTER_H_

#include <string>

#include "adapters/adapter_defaults.h"
#include "adapters/simulated/sim_world.h"

namespace gs {

class SimAdapter : public AdapterDefaults {
 public:
  SimAdapter(SimWorld* world, uint32_t host, Clock* clock);
  ~SimAdapter() override;

  std::string_view kind() const override { return "sim"; }
  Status Connect() override;
  int FreeSlots() const override;
  bool connected() const override;
  void Submit(JobSpec spec, DoneCallback done) override;
  void Cancel(JobId id) override;
  void Shutdown() override;

  // Simulated hosts keep their own files: the engine's data layer stages
  // versions with Put/Get, which take the link's time.
  bool shares_master_files() const override { return false; }
  std::string work_dir() const override;
  void Put(std::string master_path, std::string host_path,
           StatusCallback done) override;
  void Get(std::string host_path, std::string master_path,
           StatusCallback done) override;
  void Remove(std::string host_path) override;
  void Probe(ProbeCallback done) override;

 private:
  SimWorld* world_;
  uint32_t host_;
  Clock* clock_;
};

}  // namespace gs

#endif  // GSRT_ADAPTERS_SIMULATED_SIM_ADAPTER_H_
