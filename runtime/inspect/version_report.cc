#include "runtime/inspect/version_report.h"

#include <link.h>

#include <algorithm>
#include <filesystem>

#include "adapters/ssh/ssh_host_adapter.h"
#include "runtime/inspect/elf_requirements.h"

namespace gs {

namespace fs = std::filesystem;

namespace {

// The path of the loaded libgsrt, or "" (a program linked without it).
std::string LoadedLibgsrt() {
  std::string found;
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* data) {
        std::string_view name = info->dlpi_name ? info->dlpi_name : "";
        if (fs::path(name).filename().string().rfind("libgsrt.so", 0) == 0) {
          *static_cast<std::string*>(data) =
              fs::path(name).lexically_normal().string();
          return 1;
        }
        return 0;
      },
      &found);
  return found;
}

void WriteNeeds(std::string_view what, const std::string& path,
                std::ostream& out) {
  out << "  " << what
      << std::string(14 - std::min<size_t>(13, what.size()), ' ');
  if (path.empty()) {
    out << "not found\n";
    return;
  }
  out << DescribeRuntimeNeeds(path) << "  (" << path << ")\n";
}

}  // namespace

bool AsksVerboseVersion(const std::vector<std::string>& args) {
  auto has = [&](std::string_view flag) {
    return std::find(args.begin(), args.end(), flag) != args.end();
  };
  return has("--version") && has("--verbose");
}

void WriteVerboseVersion(const std::string& self, std::ostream& out) {
  out << "gsrt " << GSRT_VERSION << "\n";
#if defined(__GNUC__) && !defined(__clang__)
  out << "built by GCC " << __GNUC__ << "." << __GNUC_MINOR__ << "."
      << __GNUC_PATCHLEVEL__;
#else
  out << "built by " << __VERSION__;
#endif
  out << " against glibc " << __GLIBC__ << "." << __GLIBC_MINOR__
      << " and the libstdc++ of GCC " << _GLIBCXX_RELEASE << "\n";
  out << "What each program needs of the machine it runs on (the highest "
         "symbol versions it references):\n";
  WriteNeeds("gsrt", self, out);
  WriteNeeds("libgsrt", LoadedLibgsrt(), out);
  // The agent a run started from here would install on hosts.
  StatusOr<std::string> agent = FindAgentProgram();
  WriteNeeds("gsrt-agent", agent.ok() ? *agent : "", out);
  out << "A compute node needs only gsrt-agent and an application's worker "
         "(docs/install.md, \"What the compute nodes need\").\n";
}

}  // namespace gs
