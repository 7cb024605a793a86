// Moved to runtime/base/progress_line.h (the stderr message sink owns the
// progress line). Kept so the engine compiles unchanged until it draws its
// progress through MessageSink::Progress; remove it then.
#ifndef GSRT_RUNTIME_ENGINE_PROGRESS_LINE_H_
#define GSRT_RUNTIME_ENGINE_PROGRESS_LINE_H_

#include "runtime/base/progress_line.h"

#endif  // GSRT_RUNTIME_ENGINE_PROGRESS_LINE_H_
