#include "runtime/base/command_line.h"

#include <CLI/CLI.hpp>
#include <memory>
#include <utility>

namespace gs {

namespace {

class UsageFirst : public CLI::Formatter {
 public:
  explicit UsageFirst(std::string usage) : usage_(std::move(usage)) {}
  std::string make_description(const CLI::App*) const override { return ""; }
  std::string make_usage(const CLI::App* app, std::string) const override {
    return usage_ + "\n" + app->get_description() + "\n";
  }

 private:
  std::string usage_;
};

// For a program made of subcommands: the complaint about a first argument
// that is neither an option nor one of them ("" if it is fine). CLI11 would
// take it for a stray positional and only say a subcommand is required.
std::string UnknownSubcommand(const CLI::App& app,
                              const std::vector<std::string>& args) {
  const auto subs = app.get_subcommands([](const CLI::App*) { return true; });
  if (subs.empty() || args.empty() || args[0].empty() || args[0][0] == '-') {
    return "";
  }
  const bool positionals =
      !app.get_options([](const CLI::Option* o) { return o->get_positional(); })
           .empty();
  if (positionals) return "";
  std::string names;
  for (const CLI::App* sub : subs) {
    if (sub->check_name(args[0])) return "";
    names += (names.empty() ? "" : ", ") + sub->get_name();
  }
  return "unknown subcommand '" + args[0] + "'; the subcommands are " + names;
}

}  // namespace

std::optional<int> ParseCommandLine(CLI::App& app,
                                    const std::vector<std::string>& args,
                                    std::ostream& out, std::ostream& err) {
  // CLI11 takes a vector with the last argument first.
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  if (std::string unknown = UnknownSubcommand(app, args); !unknown.empty()) {
    err << app.get_name() << ": " << unknown << "\nRun with --help for the "
        << "options.\n";
    return kBadCommandLine;
  }
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    out << app.help();
    return 0;
  } catch (const CLI::CallForAllHelp&) {
    out << app.help("", CLI::AppFormatMode::All);
    return 0;
  } catch (const CLI::CallForVersion& e) {
    out << e.what() << "\n";
    return 0;
  } catch (const CLI::ParseError& e) {
    err << app.get_name() << ": " << e.what() << "\nRun with --help for the "
        << "options.\n";
    return kBadCommandLine;
  }
  return std::nullopt;
}

void SetUsage(CLI::App& app, std::string usage) {
  app.formatter(std::make_shared<UsageFirst>(std::move(usage)));
}

void AddVersionFlag(CLI::App& app) {
  app.set_version_flag("--version", app.get_name() + " " + GSRT_VERSION,
                       "print the version and exit");
}

std::vector<std::string> ArgsOf(int argc, const char* const* argv) {
  return argc > 1 ? std::vector<std::string>(argv + 1, argv + argc)
                  : std::vector<std::string>();
}

}  // namespace gs
