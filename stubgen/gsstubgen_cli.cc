#include "stubgen/gsstubgen_cli.h"

#include "stubgen/emitters.h"
#include "stubgen/idl_parser.h"
#include "stubgen/output_files.h"

#ifndef GSRT_VERSION
#error "GSRT_VERSION must be defined by the build"
#endif

namespace gs {

namespace {

constexpr const char kUsage[] =
    "usage: gsstubgen [-o OUTDIR] FILE.idl\n"
    "\n"
    "Reads a GRID superscalar IDL file and writes NAME.h, NAME-stubs.cc and\n"
    "NAME-worker.cc into OUTDIR (default: the current directory), where NAME\n"
    "is the IDL file name up to its first '.'.\n"
    "\n"
    "options:\n"
    "  -o, --output DIR  where to write the generated files (created if\n"
    "                    missing)\n"
    "  --help            print this help and exit\n"
    "  --version         print the version and exit\n";

int UsageError(std::ostream& err, const std::string& message) {
  err << "gsstubgen: " << message << "\n" << kUsage;
  return kGsstubgenUsage;
}

}  // namespace

int RunGsstubgen(const std::vector<std::string>& args, std::ostream& out,
                 std::ostream& err) {
  std::string out_dir = ".";
  std::string idl_path;
  bool have_idl = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--help" || arg == "-h") {
      out << kUsage;
      return kGsstubgenOk;
    }
    if (arg == "--version") {
      out << "gsstubgen " << GSRT_VERSION << "\n";
      return kGsstubgenOk;
    }
    if (arg == "-o" || arg == "--output") {
      if (i + 1 >= args.size()) return UsageError(err, arg + " needs a DIR");
      out_dir = args[++i];
    } else if (arg.rfind("--output=", 0) == 0) {
      out_dir = arg.substr(9);
    } else if (arg.size() > 2 && arg.rfind("-o", 0) == 0) {
      out_dir = arg.substr(2);
    } else if (arg.size() > 1 && arg[0] == '-') {
      return UsageError(err, "unknown option '" + arg + "'");
    } else if (have_idl) {
      return UsageError(err, "only one IDL file per run ('" + idl_path +
                                 "' and '" + arg + "')");
    } else {
      idl_path = arg;
      have_idl = true;
    }
  }
  if (!have_idl) return UsageError(err, "no IDL file given");
  if (out_dir.empty()) return UsageError(err, "empty output directory");

  StatusOr<EmitNames> names = OutputNames(idl_path);
  if (!names.ok()) {
    err << "gsstubgen: " << names.status().message() << "\n";
    return kGsstubgenError;
  }
  StatusOr<std::string> text = ReadTextFile(idl_path);
  if (!text.ok()) {
    err << "gsstubgen: " << text.status().message() << "\n";
    return kGsstubgenError;
  }
  StatusOr<Interface> iface = ParseIdl(*text, idl_path);
  if (!iface.ok()) {
    err << iface.status().message() << "\n";
    return kGsstubgenError;
  }
  Status written = WriteFilesAtomically(out_dir, EmitAll(*iface, *names));
  if (!written.ok()) {
    err << "gsstubgen: " << written.message() << "\n";
    return kGsstubgenError;
  }
  return kGsstubgenOk;
}

}  // namespace gs
