// The engine's side of results that last across runs: ResultCache
// (result_cache.h) decides; ReuseLink answers what it asks: where versions
// are, releasing or finishing the tasks it held, running its steps on the
// engine thread and fetching to the master the outputs it must store.
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <memory>

#include "runtime/engine/engine.h"
#include "runtime/engine/engine_hosts.h"
#include "runtime/engine/result_cache.h"

namespace gs {

std::string Engine::ReuseLink::VersionPath(VersionId v) const {
  return e_.mover_.places().VersionPath(v);
}

bool Engine::ReuseLink::OnMaster(VersionId v) const {
  return e_.program_.graph.version(v).on_master;
}

void Engine::ReuseLink::Release(TaskId t) {
  e_.dispatcher_.AddReady(t);  // checked: not held again
  e_.WakeLocked();
}

void Engine::ReuseLink::Reused(TaskId t, const std::vector<TaskId>& ready) {
  // The trace marks it; `gsrt tasks --reused` lists it.
  if (e_.recorder_.watched()) e_.recorder_.ReportTaskEnd(e_.mu_, t, "reused");
  for (TaskId r : ready) e_.dispatcher_.AddReady(r);
  if (!ready.empty()) e_.WakeLocked();
  e_.waits_.NotifyIfWaiting();
}

void Engine::ReuseLink::Placed(VersionId v, uint64_t size) {
  Version& ver = e_.program_.graph.version(v);
  ver.on_master = true;
  ver.size = size;
  e_.mover_.places().SetOnlyCopy(v, kNoHost);
  e_.dispatcher_.TransfersChanged();
}

void Engine::ReuseLink::PostStep() {
  boost::asio::post(e_.loop_.io(), [&e = e_] { e.memory_.cache->Step(e.mu_); });
}

void Engine::ReuseLink::Settled() {
  e_.waits_.NotifyIfWaiting();
  e_.waits_.gate().notify_all();
}

void Engine::ReuseLink::Fetch(VersionId v) {
  e_.mover_.FetchToMaster(v, [&e = e_, v](Status s) {
    MutexLock lock(&e.mu_);
    e.memory_.cache->Fetched(v, s.ok());
  });
}

bool Engine::DispatchLink::HoldReady(TaskId t) {
  return e_.memory_.cache && e_.memory_.cache->Hold(t);
}

}  // namespace gs
