#include "adapters/simulated/sim_adapter.h"

#include <fcntl.h>
#include <unistd.h>

#include "adapters/simulated/sim_runtime.h"

namespace gs {

SimAdapter::SimAdapter(SimWorld* world, uint32_t host, Clock* clock)
    : world_(world), host_(host), clock_(clock) {
  world_->rt_->clock = clock;  // one clock for the whole world
}

SimAdapter::~SimAdapter() = default;

Status SimAdapter::Connect() {
  auto& rt = *world_->rt_;
  auto& host = rt.hosts[host_];
  rt.StartProcess(host_);
  if (host.avail == SimAvail::kDown) {
    return Status::Unavailable("sim host " + world_->host(host_).name +
                               " is down");
  }
  host.connected = true;
  return Status::Ok();
}

int SimAdapter::FreeSlots() const {
  const auto& host = world_->rt_->hosts[host_];
  if (host.avail == SimAvail::kDown) return 0;
  // A host that came back after being down without the engine noticing
  // still offers its slots: the next job finds out (as a real host would
  // answer with an empty disk).
  // Slots are cores: a job holds its spec's.
  return std::max(0, world_->host(host_).slots - host.busy_cores);
}

bool SimAdapter::connected() const {
  return world_->rt_->hosts[host_].connected;
}

void SimAdapter::Submit(JobSpec spec, DoneCallback done) {
  world_->rt_->Submit(host_, std::move(spec), std::move(done));
}

void SimAdapter::Cancel(JobId id) {
  auto& rt = *world_->rt_;
  auto& jobs = rt.hosts[host_].jobs;
  auto it = jobs.find(id);
  if (it == jobs.end()) return;
  rt.Abort(it->second->gang.get(), host_, "cancelled", true);
}

void SimAdapter::Shutdown() {
  auto& rt = *world_->rt_;
  auto& host = rt.hosts[host_];
  host.avail_timer.reset();
  rt.FailTransfers(host_, "the run is over");
  while (!host.jobs.empty()) {
    rt.Abort(host.jobs.begin()->second->gang.get(), host_, "shut down", true);
  }
}

std::string SimAdapter::work_dir() const {
  return "/sim/" + world_->host(host_).name;
}

void SimAdapter::Put(std::string master_path, std::string host_path,
                     StatusCallback done) {
  auto& rt = *world_->rt_;
  uint64_t bytes = world_->MasterFileSize(master_path);
  rt.Transfer(
      host_, bytes,
      [&rt, h = host_, host_path, bytes] {
        rt.hosts[h].files[host_path] = bytes;
      },
      std::move(done));
}

void SimAdapter::Get(std::string host_path, std::string master_path,
                     StatusCallback done) {
  auto& rt = *world_->rt_;
  auto& files = rt.hosts[host_].files;
  auto it = files.find(host_path);
  if (it == files.end()) {
    rt.Later(0, [done = std::move(done), host_path,
                 name = world_->host(host_).name] {
      done(Status::NotFound(host_path + " is not on sim host " + name));
    });
    return;
  }
  uint64_t bytes = it->second;
  rt.Transfer(
      host_, bytes,
      [world = world_, master_path, bytes] {
        // The master gets a real (empty) file so GS_Open and GS_Off work;
        // its simulated size is remembered for later transfers.
        int fd = ::open(master_path.c_str(),
                        O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd >= 0) ::close(fd);
        world->SetMasterFileSize(master_path, bytes);
      },
      std::move(done));
}

void SimAdapter::Remove(std::string host_path) {
  world_->rt_->hosts[host_].files.erase(host_path);
}

void SimAdapter::Probe(ProbeCallback done) {
  HostProbe p;
  p.rtt = 2 * world_->host(host_).latency;
  p.cores = world_->host(host_).slots;
  p.bandwidth = world_->host(host_).bandwidth;
  p.queue_wait = world_->host(host_).queue_wait;
  world_->rt_->Later(p.rtt, [done = std::move(done), p] { done(p); });
}

}  // namespace gs
