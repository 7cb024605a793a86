#include "adapters/batch/via_ssh.h"

#include <memory>

#include "adapters/ssh/ssh_remote.h"
#include "adapters/ssh/ssh_session.h"
#include "adapters/ssh/ssh_target.h"

namespace gs {

CommandRunner MakeViaRunner(boost::asio::io_context& io, Clock& clock,
                            HostConfig login,
                            std::map<std::string, std::string> env) {
  auto session = std::make_shared<std::shared_ptr<SshSession>>();
  return [&io, &clock, session, login = std::move(login), env = std::move(env)](
             const std::vector<std::string>& argv,
             Seconds timeout) -> StatusOr<ProgramOutput> {
    const std::string where = "login host '" + login.name + "'";
    if (!*session || (*session)->lost()) {
      session->reset();
      auto s = SshSession::Connect(io, clock, SshTarget::FromHostConfig(login));
      if (!s.ok()) return s.status().WithContext(where);
      *session = std::move(s).value();
    }
    std::vector<std::string> full;
    if (!env.empty()) {
      full.push_back("env");
      for (const auto& [name, value] : env) full.push_back(name + "=" + value);
    }
    full.insert(full.end(), argv.begin(), argv.end());
    RunOptions options;
    options.timeout = timeout;
    auto result = RunCommand(**session, full, options);
    if (!result.ok()) return result.status().WithContext(where);
    ProgramOutput out;
    out.exit_code = result->exit_code;
    out.out = std::move(result->out);
    out.err = std::move(result->err);
    if (result->exit_code < 0 && !result->signal.empty()) out.signal = 9;
    return out;
  };
}

}  // namespace gs
