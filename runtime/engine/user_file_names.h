// A job's messages name its files by the paths the engine gave them (a
// version's data path, ".gsrt/data/9-counts_2.txt", or its copy on another
// host); the user knows them by the names the master program passed
// ("counts_2.txt"). Pure text rewriting, applied to a job's error before
// anyone reads it.
#ifndef GSRT_RUNTIME_ENGINE_USER_FILE_NAMES_H_
#define GSRT_RUNTIME_ENGINE_USER_FILE_NAMES_H_

#include <string>
#include <string_view>
#include <vector>

namespace gs {

struct PathName {
  std::string path;  // as the engine or an adapter spells it
  std::string name;  // as the user knows it
};

// `text` with every occurrence of each `path` replaced by its `name`.
// Longer paths go first, so a full path is replaced whole before a bare
// file name that ends it; replaced text is never rewritten again.
std::string WithUserNames(std::string_view text, std::vector<PathName> names);

// The user's name of a file at absolute `path`: relative to the master's
// working directory `cwd` when it is under it, else `path` itself.
std::string UserFileName(std::string_view cwd, std::string_view path);

}  // namespace gs

#endif  // GSRT_RUNTIME_ENGINE_USER_FILE_NAMES_H_
