// Functions of the C and POSIX libraries (and of the libraries the runtime
// links) that an operation must not be named after. An operation becomes an
// extern "C" function of that name in the master and the worker: named
// `close`, it replaces libc's close for the whole process, the runtime's
// own calls included, and the master fails in ways that point nowhere near
// the IDL. gsstubgen refuses such names (with the line and a new name to
// use); library_names_test.sh checks that the list covers every C function
// libgsrt and a worker actually import.
#ifndef GSRT_STUBGEN_LIBRARY_NAMES_H_
#define GSRT_STUBGEN_LIBRARY_NAMES_H_

#include <string_view>

namespace gs {

// True when `name` is a C/POSIX library function (or starts with the
// prefix of a library the runtime links: sqlite3_, ssh_, pthread_ ...).
bool IsLibraryFunction(std::string_view name);

}  // namespace gs

#endif  // GSRT_STUBGEN_LIBRARY_NAMES_H_
