// Running a CLI11 parse (Debian's libcli11-dev) the way every gsrt program
// does: arguments given as a vector (so tests parse in-process), --help and
// --version printed to `out` with exit code 0, a malformed command line
// reported on `err` as "PROGRAM: what is wrong" with exit code 2.
#ifndef GSRT_RUNTIME_BASE_COMMAND_LINE_H_
#define GSRT_RUNTIME_BASE_COMMAND_LINE_H_

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace CLI {
class App;
}  // namespace CLI

namespace gs {

// Exit code of a malformed command line, in every gsrt program.
inline constexpr int kBadCommandLine = 2;

// Parses `args` (without the program's name) into `app`. Returns the exit
// code when the program must stop now (help, version, a parse error),
// nullopt when it should go on.
std::optional<int> ParseCommandLine(CLI::App& app,
                                    const std::vector<std::string>& args,
                                    std::ostream& out, std::ostream& err);

// Makes `app`'s help start with `usage` (synopsis lines, as Unix tools
// print them: "usage: prog [-o DIR] FILE\n"), then its description.
void SetUsage(CLI::App& app, std::string usage);

// Adds --version to `app`: prints "NAME VERSION" (the app's name and the
// project version CMake gives, as help2man expects) and exits 0.
void AddVersionFlag(CLI::App& app);

// argv[1..argc-1] as strings.
std::vector<std::string> ArgsOf(int argc, const char* const* argv);

}  // namespace gs

#endif  // GSRT_RUNTIME_BASE_COMMAND_LINE_H_
