// gsdeploy: probe the configured hosts, keep their history, rank them
// (paper 004 section 2) and set them up for an application. The command
// line and the commands are runtime/deploy/deploy_cli.h; docs/gsdeploy.md
// is the manual.
//
// Exit codes: 0 done; 1 setup found hosts not ready; 2 bad command line or
// configuration (unknown host, malformed gsrt.yaml); 3 the history file is
// unusable (unreadable, not a gsrt history, newer schema, not writable).
#include <iostream>

#include "runtime/base/command_line.h"
#include "runtime/config/config.h"
#include "runtime/deploy/deploy_cli.h"

int main(int argc, char** argv) {
  gs::DeployCommand command;
  if (auto stop = gs::ParseDeployArgs(gs::ArgsOf(argc, argv), &command,
                                      std::cout, std::cerr)) {
    return *stop;
  }
  return gs::RunDeployCommand(command, gs::ConfigEnv::FromProcess(), std::cout,
                              std::cerr);
}
