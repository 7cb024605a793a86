// What a work dir's last run learnt of its worker's code, kept in
// <work_dir>/code-facts so that a run whose worker and application
// libraries did not change skips ldd and reading them: ~35 ms of every
// GS_On, and the worker's ELF file for each operation's identity.
//
// The facts hold while every file and directory they were learnt from
// stats as it did (size, times, inode), by the rule of the user's input
// files (StampStillHolds: learnt at least a second after the last change).
// The directories are the worker's, each library's, each of
// LD_LIBRARY_PATH's and /etc (ld.so.cache): a library added where the
// loader looks first changes one of them.
#ifndef GSRT_RUNTIME_MASTER_CODE_FACTS_H_
#define GSRT_RUNTIME_MASTER_CODE_FACTS_H_

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/history/result_store.h"

namespace gs {

struct CodeFacts {
  std::string worker_path;
  std::string ld_library_path;  // the environment's, as ldd saw it
  std::string whole;            // the whole worker's identity
  std::string libraries;        // the application libraries' hash
  struct Source {
    std::string path;
    FileStamp stamp;
  };
  std::vector<Source> sources;  // files and directories, stamped
  double learnt = 0;            // wall-clock seconds, before reading
  std::map<std::string, std::string> functions;  // operation -> "f:..."
};

// The file's text; paths are last on their lines (one with a newline is
// not kept: FormatCodeFacts returns "").
std::string FormatCodeFacts(const CodeFacts& facts);
// False for text that is not such a file (another version, damaged).
bool ParseCodeFacts(std::string_view text, CodeFacts* facts);

// Whether `facts` still hold for `worker_path` run with `ld_library_path`
// (stats each source).
bool CodeFactsHold(const CodeFacts& facts, const std::string& worker_path,
                   const std::string& ld_library_path);

// The directories whose stamps guard the facts of a worker at
// `worker_path` with `libraries`, under `ld_library_path`.
std::vector<std::string> GuardDirectories(
    const std::string& worker_path, const std::vector<std::string>& libraries,
    const std::string& ld_library_path);

}  // namespace gs

#endif  // GSRT_RUNTIME_MASTER_CODE_FACTS_H_
