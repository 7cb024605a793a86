// GS_On's start progress (start_progress.h) on the real clock: the threads
// that start hosts report to it, and a thread of its own says what is due
// when a host's quiet time runs out. The lines go to `sink` as kInfo (a
// quiet run says none).
#ifndef GSRT_RUNTIME_ENGINE_START_WATCH_H_
#define GSRT_RUNTIME_ENGINE_START_WATCH_H_

#include <condition_variable>
#include <string>
#include <thread>
#include <vector>

#include "runtime/base/messages.h"
#include "runtime/base/mutex.h"
#include "runtime/engine/start_progress.h"

namespace gs {

class StartWatch {
 public:
  // `sink` must outlive this object.
  explicit StartWatch(MessageSink& sink, Seconds quiet_for = 1);
  ~StartWatch();  // stops the thread; says nothing more
  StartWatch(const StartWatch&) = delete;
  StartWatch& operator=(const StartWatch&) = delete;

  // As StartProgress's, at the time of the call; any thread.
  size_t Begin(std::string name, std::string kind);
  void Phase(size_t host, StartPhase phase);
  void Pause(size_t host);
  void Resume(size_t host);
  void End(size_t host, bool ok);

 private:
  void Run();
  // Under mu_, so that lines come in the order they were decided (the
  // sink takes no lock of ours).
  void Say(const std::vector<std::string>& lines) REQUIRES(mu_);

  MessageSink& sink_;
  Mutex mu_;
  std::condition_variable stop_;
  StartProgress progress_ GUARDED_BY(mu_);
  bool stopping_ GUARDED_BY(mu_) = false;
  std::thread thread_;
};

}  // namespace gs

#endif  // GSRT_RUNTIME_ENGINE_START_WATCH_H_
