// The IDL model: what gsstubgen knows about an interface once the text is
// parsed. Emitters read only this, never the text (as gRPC's compiler splits
// its descriptor model from the printers).
#ifndef GSRT_STUBGEN_IDL_MODEL_H_
#define GSRT_STUBGEN_IDL_MODEL_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gs/gs_abi.h"

namespace gs {

struct Param {
  gs_dir dir = GS_DIR_IN;
  gs_type type = GS_TYPE_FILE;  // an array's element type
  std::string name;
  // Arrays of scalars: `int[8]` has array_length 8, `int[n]` has
  // length_param "n" (an `in` integer parameter of the same operation).
  int array_length = 0;
  std::string length_param;

  bool IsArray() const { return array_length > 0 || !length_param.empty(); }
};

// `@MPI(...)`: `processes` ranks, `per_node` on each node (0: all on
// one), started by `runner`.
struct MpiSpec {
  std::string runner = "mpirun";
  int processes = 1;
  int per_node = 0;
};

// `@Binary(binary="sort", args="-k {key} {input}", stdout=sorted)`: the
// operation runs a program instead of a function (stubgen/idl_binary.h).
struct BinarySpec {
  std::string program;
  // The program's arguments as words, `{name}` standing for a parameter's
  // value; without `args` (has_args false): every parameter in order but
  // the standard streams.
  bool has_args = false;
  std::vector<std::string> args;
  // Parameters bound to the program's standard streams; "" for none.
  std::string stdin_param, stdout_param, stderr_param;
  // Exit statuses that succeed; empty: any (failByExitValue=false).
  std::vector<int> success = {0};
  // `@MPI(...)`: the program runs as one MPI job.
  std::optional<MpiSpec> mpi;
};

struct Operation {
  std::string name;
  gs_type return_type = GS_TYPE_VOID;  // an array's element type
  // `long[3] f(...)` (COMPSs's array return value): 3; 0 for one value.
  int return_array_length = 0;
  std::vector<Param> params;
  // Raw text inside `@Constraints(...)` / `@Timeout(...)` lines written
  // just before the operation; empty when there were none.
  std::string constraints;
  std::string timeout;
  // The operation named by `@Implements(name)`, if any.
  std::string implements;
  // What those annotations ask for (stubgen/idl_annotations.h); 0 when not
  // given: one core, no memory reserved, no timeout of the IDL's own, no
  // GPU.
  int computing_units = 0;
  double memory_gb = 0;
  double timeout_seconds = 0;
  int gpus = 0;  // GPUs=k, or COMPSs's processorType=GPU
  // An @MPI operation: the nodes a job spans (processes over
  // processesPerNode), computing_units cores on each; 0: not MPI.
  int nodes = 0;
  // Raw text of `@Binary(...)` and what it says; no function implements
  // such an operation.
  std::string binary_text;
  std::optional<BinarySpec> binary;
  // Line of the operation's return type in the IDL file (1-based).
  int line = 0;
};

struct Interface {
  std::string name;
  std::vector<Operation> operations;
};

// True for char, boolean, short, int, long, float and double.
bool IsScalar(gs_type type);

// The IDL spelling of a type or direction ("File", "inout").
const char* IdlTypeName(gs_type type);
const char* IdlDirName(gs_dir dir);

// The type named `name` in the IDL ("void" included), if any.
std::optional<gs_type> TypeFromIdlName(std::string_view name);
std::optional<gs_dir> DirFromIdlName(std::string_view name);

// C spelling of a value of `type`: "const char*" for File/string, "bool"
// for boolean, "void" for void.
const char* CTypeName(gs_type type);

// C type of a variable that receives a result of `type`: a return value
// or what an out/inout parameter points to. "char*" for string (a malloc'd
// string its receiver frees), CTypeName otherwise.
const char* CResultTypeName(gs_type type);

// C type of what the operation returns: "long*" for `long[3] f(...)` (a
// malloc'd array its receiver frees), CResultTypeName otherwise.
std::string CReturnTypeName(const Operation& op);

// "long[3]" for an array return value, the type's own name otherwise.
std::string IdlReturnTypeName(const Operation& op);

// The enumerator names of api/include/gs/gs_abi.h ("GS_TYPE_FILE").
const char* AbiTypeName(gs_type type);
const char* AbiDirName(gs_dir dir);

// True for out/inout scalars and strings and for arrays, which the
// generated code passes by pointer.
bool IsByPointer(const Param& param);

// "int[8]", "double[n]", or the type's own name.
std::string IdlParamTypeName(const Param& param);

// "void add(in File a, inout double acc)".
std::string Signature(const Operation& op);

}  // namespace gs

#endif  // GSRT_STUBGEN_IDL_MODEL_H_
