// The stream of an agent started by the install check (install_check.h):
// a ByteStream over the channel running InstallCheckArgv(..., agent argv)
// that takes the check's line off the front and passes on only what the
// agent sends after it. When the line says a program is not in place (or
// is not the check's line) the stream closes with FailedPrecondition, and
// the outcome tells the ssh adapter what to install before it starts the
// agent alone.
#ifndef GSRT_ADAPTERS_SSH_CHECKED_START_STREAM_H_
#define GSRT_ADAPTERS_SSH_CHECKED_START_STREAM_H_

#include <memory>
#include <string>

#include "adapters/ssh/install_check.h"
#include "adapters/transport/byte_stream.h"

namespace gs {

class CheckedStartStream : public ByteStream {
 public:
  // `inner` runs the check for `programs` programs, then the agent.
  // `outcome` is filled in as the stream learns; `where` names the host in
  // messages.
  CheckedStartStream(std::unique_ptr<ByteStream> inner, size_t programs,
                     std::shared_ptr<CheckedStartOutcome> outcome,
                     std::string where);
  ~CheckedStartStream() override;

  // on_data gets the agent's bytes only. Written bytes go out at once: the
  // check does not read its stdin, so they wait there for the agent.
  void Start(DataCallback on_data, ClosedCallback on_closed) override;
  void Write(std::string_view bytes) override;
  size_t pending_bytes() const override;
  void Close() override;

 private:
  void OnData(std::string_view bytes);
  void OnClosed(Status why);
  // The check did not let the agent start: closes the channel and says so.
  void Refuse(Status why);

  std::unique_ptr<ByteStream> inner_;
  const size_t programs_;
  std::shared_ptr<CheckedStartOutcome> outcome_;
  const std::string where_;
  DataCallback on_data_;
  ClosedCallback on_closed_;
  std::string line_;     // the check's line, until its newline came
  bool passed_ = false;  // the line came and every program passed
  bool closed_ = false;
  // False once destroyed: callbacks may delete the stream.
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace gs

#endif  // GSRT_ADAPTERS_SSH_CHECKED_START_STREAM_H_
