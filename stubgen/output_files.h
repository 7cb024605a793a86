// File-system side of gsstubgen: naming the outputs after the IDL file,
// reading the IDL, and writing the generated files so that a failure never
// leaves a mix of old and new outputs behind.
#ifndef GSRT_STUBGEN_OUTPUT_FILES_H_
#define GSRT_STUBGEN_OUTPUT_FILES_H_

#include <string>
#include <string_view>
#include <vector>

#include "runtime/base/status.h"
#include "stubgen/emitters.h"

namespace gs {

// The names of the outputs for the IDL file at `idl_path`: "ledger" and
// "ledger.idl" for "dir/ledger.idl". The base ends at the first '.', like
// CMake's NAME_WE, so gsrt_add_application() finds the files. Fails when
// the base is empty or not made of letters, digits, '_', '-' and '+'.
StatusOr<EmitNames> OutputNames(std::string_view idl_path);

// The whole content of the file at `path`.
StatusOr<std::string> ReadTextFile(const std::string& path);

// Writes `files` into `dir` (created when missing): first every file to a
// temporary name in `dir`, then renames them all. An error while writing
// removes the temporaries and leaves existing outputs untouched.
Status WriteFilesAtomically(const std::string& dir,
                            const std::vector<GeneratedFile>& files);

}  // namespace gs

#endif  // GSRT_STUBGEN_OUTPUT_FILES_H_
