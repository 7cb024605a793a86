// One authenticated ssh connection to a host, driven by the engine's
// io_context without a thread of its own; several channels share it (an
// agent's stream and short commands side by side). libssh is used only
// from the io_context's thread: when the socket is ready the session lets
// libssh process the packets without blocking, then gives every channel (a
// Listener) the chance to deliver what arrived and to write, and another
// pass whenever libssh read from the socket during one (docs/ssh.md,
// "Threading and blocking", says why). Connect() blocks the calling thread
// up to target.connect_timeout; everything after it is non-blocking,
// except the synchronous helpers of ssh_remote.h, which say so, and the
// destructor (up to 1 s to send what is queued).
#ifndef GSRT_ADAPTERS_SSH_SSH_SESSION_H_
#define GSRT_ADAPTERS_SSH_SSH_SESSION_H_

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "adapters/ssh/ssh_target.h"
#include "runtime/base/clock.h"
#include "runtime/base/status.h"

// libssh's handle types, declared as libssh.h does.
typedef struct ssh_session_struct* ssh_session;
typedef struct ssh_event_struct* ssh_event;
struct ssh_counter_struct;

namespace gs {

class SshSession : public std::enable_shared_from_this<SshSession> {
 public:
  // Connects, checks the host key against target.known_hosts (strict or
  // accept-new; a changed key is always refused) and authenticates with
  // a public key only. Errors name the host and say what to do:
  //   Unavailable       refused connection, unreachable address
  //   TimedOut          nothing completed the handshake within the timeout
  //   PermissionDenied  host key refused, or the key was not accepted
  //   NotFound          the identity file does not exist
  // `io` and `clock` must outlive the session.
  static StatusOr<std::shared_ptr<SshSession>> Connect(
      boost::asio::io_context& io, Clock& clock, const SshTarget& target);

  // Sends what is still queued (waiting up to 1 s for the socket to take
  // it) and a disconnect. Every channel must be gone (they keep the session
  // alive through their shared_ptr, so this holds by construction).
  ~SshSession();
  SshSession(const SshSession&) = delete;
  SshSession& operator=(const SshSession&) = delete;

  const SshTarget& target() const { return target_; }
  // "host node1 (127.0.0.2:2222)", for messages.
  const std::string& describe() const { return describe_; }
  boost::asio::io_context& io() { return io_; }
  Clock& clock() { return clock_; }

  // True once the connection broke (the host closed it, the network
  // failed, keepalives went unanswered); lost_status() says why.
  bool lost() const { return lost_; }
  const Status& lost_status() const { return lost_status_; }

  // --- For the channel code of this folder. ---

  // Something that uses the session: told when libssh may have news.
  class Listener {
   public:
    virtual ~Listener() = default;
    // Do the non-blocking work that is possible now. Return true if work
    // remains that needs no new input from the socket (a read budget ran
    // out); the session then calls again soon.
    virtual bool OnSessionReady() = 0;
    // The connection is gone; called once, after which OnSessionReady is
    // not called again.
    virtual void OnSessionLost(const Status& why) = 0;
  };
  // A listener must be removed before it is destroyed. Both may be called
  // from inside a listener's callbacks.
  void AddListener(Listener* listener);
  void RemoveListener(Listener* listener);

  // Runs the listeners soon (posted, coalesced). Call after queuing output
  // and after any libssh call made outside a listener callback: libssh may
  // have read socket data that no readiness event will announce again.
  void Kick();

  // Grows whenever libssh reads from the socket.
  uint64_t InputMark() const;

  // For the synchronous helpers only. Unless libssh read input since
  // InputMark() returned `mark` (then the caller should look again first),
  // waits up to `timeout_ms` for input, or for the socket to take queued
  // output, and lets libssh process it. It may return early; the caller
  // looks and calls again.
  // Called from a thread that is not running the io_context (an adapter
  // connecting before the engine's thread starts), it runs the
  // io_context's other work while it waits: the agents of hosts connected
  // before must go on exchanging heartbeats. Called from inside a handler,
  // it blocks, and that other work waits; so it does while
  // set_serve_io(false). A connection libssh finds
  // closed meanwhile is marked lost at once (lost() says so; listeners are
  // told from the io_context afterwards), so the caller's loop ends rather
  // than spinning on a dead socket until its timeout.
  void WaitSocket(int timeout_ms, uint64_t mark);

  // False while the session is used on a thread of its own as others are
  // (an adapter's Prepare): WaitSocket then blocks in libssh's poll and
  // never runs the io_context, whose handlers belong to other sessions.
  void set_serve_io(bool serve) { serve_io_ = serve; }

  // Marks the connection lost (once) and tells every listener.
  void MarkLost(Status why);

  ssh_session raw() const { return raw_; }

 private:
  struct Entry {
    Listener* listener;
    bool told_lost;
  };

  SshSession(boost::asio::io_context& io, Clock& clock, SshTarget target,
             ssh_session raw);
  Status Start();
  void Pump();
  bool CheckConnection();
  // libssh still holds the connection open.
  bool Connected() const;
  Status LostStatus() const;
  void NotifyLost();
  void Arm(bool output_blocked);
  bool SocketReady(short events) const;
  // WaitSocket's way outside the io_context's thread; false if the
  // io_context has nothing that could wake it (then WaitSocket polls).
  bool ServeIoWhileWaiting(int timeout_ms);
  void ScheduleKeepalive();
  void OnKeepalive();

  boost::asio::io_context& io_;
  Clock& clock_;
  const SshTarget target_;
  const std::string describe_;
  ssh_session raw_;
  ssh_event event_ = nullptr;
  // libssh's socket byte counts (libssh keeps a pointer to it).
  std::unique_ptr<ssh_counter_struct> counters_;
  boost::asio::posix::stream_descriptor socket_;  // a dup of libssh's fd
  std::vector<Entry> listeners_;
  int iterating_ = 0;  // > 0 while listeners_ is walked: erase nothing
  bool read_armed_ = false;
  bool write_armed_ = false;
  bool kick_posted_ = false;
  bool lost_ = false;
  bool serve_io_ = true;
  Status lost_status_;
  Seconds last_heard_ = 0;  // when the socket last had input
  bool heard_ = false;      // input since the last keepalive tick
  int missed_ = 0;          // ticks in a row without input
  std::unique_ptr<Timer> keepalive_;
};

}  // namespace gs

#endif  // GSRT_ADAPTERS_SSH_SSH_SESSION_H_
