// Writing the worker's result file so that a reader never sees half of it:
// the text goes to a temporary file beside it, which is then renamed.
#ifndef GSRT_RUNTIME_WORKER_RESULT_FILE_H_
#define GSRT_RUNTIME_WORKER_RESULT_FILE_H_

#include <string>
#include <string_view>

#include "runtime/base/status.h"

namespace gs {

Status WriteFileAtomically(const std::string& path, std::string_view content);

}  // namespace gs

#endif  // GSRT_RUNTIME_WORKER_RESULT_FILE_H_
