/* The small ABI between code that gsstubgen generates and the gsrt libraries.
 * Users do not call these functions directly. */
#ifndef GS_GS_ABI_H_
#define GS_GS_ABI_H_

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  GS_TYPE_VOID = 0,
  GS_TYPE_FILE,
  GS_TYPE_STRING,
  GS_TYPE_CHAR,
  GS_TYPE_BOOLEAN,
  GS_TYPE_SHORT,
  GS_TYPE_INT,
  GS_TYPE_LONG,
  GS_TYPE_FLOAT,
  GS_TYPE_DOUBLE
} gs_type;

typedef enum { GS_DIR_IN = 0, GS_DIR_OUT, GS_DIR_INOUT } gs_dir;

/* One parameter. An array of scalars (`in int[8] a`, `out double[n] r`)
 * has its element type in `type` and its length in `array_length` (fixed)
 * or in the `in` integer parameter number `length_param` - 1. */
typedef struct {
  const char* name;
  gs_type type;
  gs_dir dir;
  int array_length; /* int[8]: 8; otherwise 0 */
  int length_param; /* int[n]: 1 + the index of parameter n; otherwise 0 */
} gs_param_desc;

/* One operation of the IDL, as a static table in the generated code. The
 * last fields come from the IDL's annotations; 0 means not given. */
typedef struct gs_operation {
  const char* name;
  gs_type return_type;
  int num_params;
  const gs_param_desc* params;
  int computing_units; /* @Constraints(ComputingUnits=k): cores a job holds */
  double memory_gb;    /* @Constraints(MemorySize=g): memory a job holds */
  double timeout;      /* @Timeout(s): seconds before the job is stopped */
  /* The operations declared `@Implements(this one)`, in IDL order: a call
   * of this operation may run one of them instead (same parameters). */
  const struct gs_operation* const* alternatives;
  int num_alternatives;
  /* `long[3] f(...)`: the return value is an array of 3 `return_type`
   * elements, returned as a pointer to a malloc'd array that the receiver
   * frees with free(); 0 for a single value (or void). */
  int return_array_length;
  int gpus; /* @Constraints(GPUs=k): devices a job holds, its own */
  /* @MPI: the nodes a job spans, computing_units cores (ranks) on each;
   * 0: not an MPI job. */
  int nodes;
} gs_operation;

/* One argument of a call. `in` File/string: `str`; `in` scalars: the matching
 * value field; arrays: `ptr` to the first element (read for in/inout,
 * written for out/inout when the task finishes); `out`/`inout` scalars and
 * strings: `ptr` to the caller's
 * variable (read for inout, written when the task finishes; a string
 * variable is a `char*` that then holds a malloc'd copy, the old one freed). */
typedef struct {
  const char* str;
  void* ptr;
  long long i;
  double d;
} gs_arg;

/* Master side: submits one call of `op`. When the operation returns a value
 * or has out/inout scalars or strings, waits for the task and stores the
 * results (`return_slot` points to a variable of the return type, or is
 * NULL; for an array return value, to a pointer variable that then holds a
 * malloc'd array of `return_array_length` elements). */
void gs_call(const gs_operation* op, const gs_arg* args, void* return_slot);

/* Master side: the generated stubs name the operations the program may
 * call, before main runs, so that GS_On can check the per-operation keys
 * of gsrt.yaml (runtime.timeout, ...) against them. Returns 0. */
int gs_register_operations(const char* interface_name,
                           const gs_operation* const* ops, int num_ops);

/* Worker side: one entry per operation, with a trampoline that decodes the
 * arguments and calls the user's function. `args` holds one entry per
 * parameter; out/inout scalars point into `slots`, and the return value goes
 * to `return_slot` (for an array return value, the function's malloc'd
 * pointer, which the worker frees once it has written the result). */
typedef void (*gs_trampoline)(const gs_arg* args, void* return_slot);

/* An operation that runs a program (`@Binary` in the IDL). `args` are the
 * argument words, in which `{name}` stands for the value of the operation's
 * parameter `name`; NULL: every parameter in order but the streams. The
 * streams are parameter indexes, -1 for none. `success` lists the exit
 * statuses that succeed (NULL with num_success 0: any). */
typedef struct {
  const char* program;
  const char* const* args;
  int num_args;
  int stdin_param;
  int stdout_param;
  int stderr_param;
  const int* success;
  int num_success;
  /* `@MPI`: the program runs as one MPI job of mpi_processes ranks,
   * mpi_per_node on each node, started by mpi_runner ("mpirun", "srun",
   * "mpiexec"); NULL and 0 for a plain program. */
  const char* mpi_runner;
  int mpi_processes;
  int mpi_per_node;
} gs_binary;

/* Worker side: runs `binary` for a call of `op` with `args` in the job's
 * directory and waits for it. Returns 0 when it exited with a success
 * status; otherwise writes why (the program, its status, its last error
 * lines) to `error` and returns 1. */
int gs_run_binary(const gs_binary* binary, const gs_operation* op,
                  const gs_arg* args, char* error, size_t error_size);

typedef struct {
  const gs_operation* op;
  gs_trampoline call;
} gs_worker_entry;

/* The worker program's main: `NAME-worker run OP RESULT ARG...`,
 * `--version`, `--list`, `--help`. */
int gs_worker_main(int argc, char** argv, const char* interface_name,
                   const gs_worker_entry* entries, int num_entries);

#ifdef __cplusplus
}
#endif

#endif /* GS_GS_ABI_H_ */
