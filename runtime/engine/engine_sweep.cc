// The engine's side of clearing hosts (host_sweeper.h sweeps): what the
// sweeper asks of the engine (SweepLink).
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <chrono>

#include "runtime/engine/engine.h"
#include "runtime/engine/engine_hosts.h"
#include "runtime/engine/resume_journal.h"

namespace gs {

bool Engine::SweepLink::Stopping() const { return e_.loop_.stopping(e_.mu_); }

void Engine::SweepLink::Post(std::function<void()> fn) {
  boost::asio::post(e_.loop_.io(), std::move(fn));
}

std::vector<std::string> Engine::SweepLink::KeptFiles(HostId h) const {
  return e_.mover_.places().FileNamesOn(h);
}

std::vector<std::pair<HostId, std::string>> Engine::SweepLink::ResumedCopies()
    const {
  if (!e_.memory_.journal) return {};
  return e_.memory_.journal->FetchedCopies();
}

void Engine::SweepLink::RemoveRemoteCopies() { e_.mover_.RemoveRemoteCopies(); }

void Engine::SweepLink::Reconnect(HostId h) { e_.monitor_.Reconnect(h); }

void Engine::SweepLink::ReconnectAnswered(HostId h, bool ok) {
  e_.monitor_.Answered(e_.mu_, h, ok);
}

void Engine::SweepLink::RecordHostLost(HostId h, const std::string& why) {
  e_.recorder_.RecordHostLost(e_.mu_, h, why);
}

void Engine::SweepLink::Wait(MutexLock& lock, Seconds bound,
                             std::function<bool()> done) {
  e_.waits_.Begin();
  e_.waits_.gate().wait_for(lock, std::chrono::duration<double>(bound), done);
  e_.waits_.End();
}

void Engine::SweepLink::NotifyWaiters() { e_.waits_.gate().notify_all(); }

}  // namespace gs
