// The printers: pure functions from the IDL model to the text of the four
// generated files. No I/O here; gsstubgen_main writes what they return.
//
//   NAME.h          declarations, for the master and the functions file
//   NAME-stubs.cc   master side: each call packs gs_arg[] and calls gs_call
//   NAME-worker.cc  worker side: trampolines + main -> gs_worker_main
//   NAME-binaries.cc  the functions of @Binary operations, which run their
//                   program (gs_run_binary); linked into the worker and the
//                   sequential build; a comment alone when there are none
#ifndef GSRT_STUBGEN_EMITTERS_H_
#define GSRT_STUBGEN_EMITTERS_H_

#include <string>
#include <string_view>
#include <vector>

#include "stubgen/idl_model.h"

namespace gs {

// What names the generated files: `base` is the IDL file name without its
// extension ("ledger"), `source` the IDL file name for the banner
// ("ledger.idl").
struct EmitNames {
  std::string base;
  std::string source;
};

std::string EmitHeader(const Interface& iface, const EmitNames& names);
std::string EmitStubs(const Interface& iface, const EmitNames& names);
std::string EmitWorker(const Interface& iface, const EmitNames& names);
std::string EmitBinaries(const Interface& iface, const EmitNames& names);

struct GeneratedFile {
  std::string name;  // "ledger-stubs.cc"
  std::string content;
};

// The four files, in the order header, stubs, worker, binaries.
std::vector<GeneratedFile> EmitAll(const Interface& iface,
                                   const EmitNames& names);

}  // namespace gs

#endif  // GSRT_STUBGEN_EMITTERS_H_
