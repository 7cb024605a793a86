// What `@Constraints(...)`, `@Timeout(...)` and `@Binary(...)`
// (stubgen/idl_binary.h) ask of an operation. The keys
// are COMPSs's (its C binding's spelling, ComputingUnits and MemorySize in
// GB, with the Java and Python spellings as aliases); keys gsrt does not
// honour are refused rather than silently ignored.
#ifndef GSRT_STUBGEN_IDL_ANNOTATIONS_H_
#define GSRT_STUBGEN_IDL_ANNOTATIONS_H_

#include <string>
#include <string_view>

#include "stubgen/idl_lexer.h"
#include "stubgen/idl_model.h"

namespace gs {

// Reads an annotation token into `op` (computing_units, memory_gb or
// timeout_seconds). On a bad key or value returns false with the message
// naming the key and what to write instead.
bool ApplyAnnotation(const Token& annotation, Operation* op,
                     std::string* error);

// "computingUnits", "ComputingUnits" and "computing_units" are one key:
// lower case, without '_'.
std::string NormalizeAnnotationKey(std::string_view key);

}  // namespace gs

#endif  // GSRT_STUBGEN_IDL_ANNOTATIONS_H_
