#include "adapters/simulated/sim_master_link.h"

#include <algorithm>

namespace gs {

SimMasterLink::Id SimMasterLink::Send(uint32_t host, Seconds seconds,
                                      std::function<void()> done) {
  Id id = next_++;
  Transfer& t = transfers_[id];
  t.host = host;
  t.remaining = std::max<Seconds>(0, seconds);
  t.done = std::move(done);
  queue_.push_back(id);
  Admit();
  return id;
}

void SimMasterLink::Drop(Id id) {
  auto it = transfers_.find(id);
  if (it == transfers_.end()) return;
  if (it->second.has_channel) {
    --active_;
  } else {
    queue_.erase(std::find(queue_.begin(), queue_.end(), id));
  }
  transfers_.erase(it);
  Admit();
}

void SimMasterLink::SetHostUp(uint32_t host, bool up) {
  if (host >= up_.size()) up_.resize(host + 1, true);
  if (up_[host] == up) return;
  up_[host] = up;
  for (auto& [id, t] : transfers_) {
    if (t.host != host || !t.has_channel) continue;
    if (up) {
      Resume(id, t);
    } else {
      Pause(t);
    }
  }
}

void SimMasterLink::Pause(Transfer& t) {
  if (t.since < 0) return;
  t.remaining = std::max<Seconds>(0, t.remaining - (clock_->Now() - t.since));
  t.since = -1;
  t.timer.reset();
}

void SimMasterLink::Resume(Id id, Transfer& t) {
  if (t.since >= 0) return;
  t.since = clock_->Now();
  t.timer = clock_->After(t.remaining, [this, id] { Finish(id); });
}

void SimMasterLink::Finish(Id id) {
  auto it = transfers_.find(id);
  if (it == transfers_.end()) return;
  std::function<void()> done = std::move(it->second.done);
  transfers_.erase(it);
  --active_;
  Admit();
  done();
}

void SimMasterLink::Admit() {
  while (!queue_.empty() && (n_com_ == 0 || active_ < n_com_)) {
    Id id = queue_.front();
    queue_.pop_front();
    Transfer& t = transfers_[id];
    t.has_channel = true;
    ++active_;
    if (Up(t.host)) Resume(id, t);
  }
}

}  // namespace gs
