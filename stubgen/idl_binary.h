// `@Binary(...)` and `@MPI(...)`: operations that run an existing program,
// plainly or as one MPI job (COMPSs's annotations). @Binary's keys:
//   binary="PROGRAM"        the program (searched in PATH without a '/')
//   args="WORDS"            its arguments: words split at blanks, '...' or
//                           \"...\" keeping blanks, a backslash (outside
//                           '...') keeping the next character, {name} the
//                           value of parameter `name` (one word); default:
//                           every parameter in order but the streams
//   stdin=NAME              an `in File` read as standard input
//   stdout=NAME, stderr=NAME  an `out File` (or `inout`: appended to)
//   success="0,1"           exit statuses that succeed (default 0)
//   failByExitValue=false   any exit status succeeds
// Every value is one argv word however it is spelt: no shell sees it.
#ifndef GSRT_STUBGEN_IDL_BINARY_H_
#define GSRT_STUBGEN_IDL_BINARY_H_

#include <string>
#include <vector>

#include "stubgen/idl_model.h"

namespace gs {

// Reads the text inside `@Binary(...)`, or with `mpi` inside `@MPI(...)`,
// which also takes runner="mpirun" (or srun, mpiexec), processes=N and
// processesPerNode=P (default N: one node). On a bad key or value returns
// false with a message naming it and what to write instead.
bool ParseBinaryAnnotation(const std::string& text, BinarySpec* spec,
                           std::string* error, bool mpi = false);

// An @MPI operation's job size: processesPerNode cores on each of
// ceil(processes / processesPerNode) nodes (computing_units, nodes).
// False when @Constraints gives ComputingUnits too.
bool ApplyMpiShape(Operation* op, std::string* error);

// Splits an `args` template into words (quotes group, backslash escapes).
bool SplitArgsTemplate(const std::string& text, std::vector<std::string>* words,
                       std::string* error);

// The `{name}` placeholders of one template word, in order.
std::vector<std::string> PlaceholdersOf(const std::string& word);

// Checks `op.binary` against the operation's parameters: placeholders and
// streams name parameters; streams have the right direction; no value
// comes back (void, no out scalars or strings, no arrays).
bool CheckBinary(const Operation& op, std::string* error);

}  // namespace gs

#endif  // GSRT_STUBGEN_IDL_BINARY_H_
