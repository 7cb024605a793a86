#include "stubgen/gsstubgen_cli.h"

#include <CLI/CLI.hpp>

#include "runtime/base/command_line.h"
#include "stubgen/emitters.h"
#include "stubgen/idl_parser.h"
#include "stubgen/output_files.h"

#ifndef GSRT_VERSION
#error "GSRT_VERSION must be defined by the build"
#endif

namespace gs {

std::optional<int> ParseGsstubgenArgs(const std::vector<std::string>& args,
                                      GsstubgenOptions* options,
                                      std::ostream& out, std::ostream& err) {
  CLI::App app{
      "Reads a GRID superscalar IDL file and writes NAME.h, NAME-stubs.cc,\n"
      "NAME-worker.cc and NAME-binaries.cc (the functions of operations\n"
      "that run programs, @Binary and @MPI) into OUTDIR (default: the\n"
      "current directory), where NAME is the IDL file name up to its first\n"
      "'.'.",
      "gsstubgen"};
  SetUsage(app, "usage: gsstubgen [-o OUTDIR] FILE.idl\n");
  app.footer(
      "Exit codes: 0 written; 1 malformed IDL, unreadable file or unwritable\n"
      "directory (nothing is written); 2 bad command line.");
  app.set_version_flag("--version", std::string("gsstubgen ") + GSRT_VERSION,
                       "print the version and exit");
  app.add_option("-o,--output", options->out_dir,
                 "where to write the generated files (created if missing)")
      ->type_name("DIR");
  app.add_option("FILE.idl", options->idl_path, "the IDL file")->required();
  if (std::optional<int> stop = ParseCommandLine(app, args, out, err)) {
    return stop;
  }
  if (options->out_dir.empty()) {
    err << "gsstubgen: empty output directory\n";
    return kGsstubgenUsage;
  }
  return std::nullopt;
}

int GenerateStubs(const GsstubgenOptions& options, std::ostream& err) {
  StatusOr<EmitNames> names = OutputNames(options.idl_path);
  if (!names.ok()) {
    err << "gsstubgen: " << names.status().message() << "\n";
    return kGsstubgenError;
  }
  StatusOr<std::string> text = ReadTextFile(options.idl_path);
  if (!text.ok()) {
    err << "gsstubgen: " << text.status().message() << "\n";
    return kGsstubgenError;
  }
  StatusOr<Interface> iface = ParseIdl(*text, options.idl_path);
  if (!iface.ok()) {
    err << iface.status().message() << "\n";
    return kGsstubgenError;
  }
  Status written =
      WriteFilesAtomically(options.out_dir, EmitAll(*iface, *names));
  if (!written.ok()) {
    err << "gsstubgen: " << written.message() << "\n";
    return kGsstubgenError;
  }
  return kGsstubgenOk;
}

int RunGsstubgen(const std::vector<std::string>& args, std::ostream& out,
                 std::ostream& err) {
  GsstubgenOptions options;
  if (std::optional<int> stop = ParseGsstubgenArgs(args, &options, out, err)) {
    return *stop;
  }
  return GenerateStubs(options, err);
}

}  // namespace gs
