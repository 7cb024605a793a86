#include "stubgen/emitters.h"

#include "stubgen/emit_util.h"

namespace gs {

namespace {

std::string IncludeGuard(std::string_view base) {
  std::string guard = "GSRT_GENERATED_";
  for (char c : base) {
    if (c >= 'a' && c <= 'z') {
      guard += static_cast<char>(c - 'a' + 'A');
    } else if ((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
      guard += c;
    } else {
      guard += '_';
    }
  }
  return guard + "_H_";
}

std::string Includes(const EmitNames& names) {
  return "#include \"" + names.base + ".h\"\n\n#include <gs/gs_abi.h>\n\n";
}

// `gs_arg gs_args[n]` filled from the operation's C parameters.
std::string PackArgs(const Operation& op) {
  size_t n = op.params.size();
  std::string text =
      "  gs_arg gs_args[" + std::to_string(n > 0 ? n : 1) + "] = {};\n";
  for (size_t k = 0; k < n; ++k) {
    const Param& p = op.params[k];
    std::string field;
    if (p.IsArray() && p.dir == GS_DIR_IN) {
      // The worker's copy is the one written; the caller's stays const.
      text += "  gs_args[" + std::to_string(k) + "].ptr = const_cast<" +
              CTypeName(p.type) + "*>(" + p.name + ");\n";
      continue;
    } else if (IsByPointer(p)) {
      field = "ptr";
    } else if (p.type == GS_TYPE_FILE || p.type == GS_TYPE_STRING) {
      field = "str";
    } else if (p.type == GS_TYPE_FLOAT || p.type == GS_TYPE_DOUBLE) {
      field = "d";
    } else {
      field = "i";
    }
    text += "  gs_args[" + std::to_string(k) + "]." + field + " = " + p.name +
            ";\n";
  }
  return text;
}

// The master's stub: packs the arguments and submits the call.
std::string Stub(const Operation& op) {
  std::string text = CDeclaration(op, " {") + "\n" + PackArgs(op);
  if (op.return_type == GS_TYPE_VOID) {
    text += "  gs_call(&gs_op_" + op.name + ", gs_args, nullptr);\n";
  } else {
    // An array return value arrives as a malloc'd array the caller frees.
    text += "  " + CReturnTypeName(op) + " gs_result{};\n";
    text += "  gs_call(&gs_op_" + op.name + ", gs_args, &gs_result);\n";
    text += "  return gs_result;\n";
  }
  return text + "}\n";
}

// How the trampoline turns a[k] back into the user's argument.
std::string DecodedArg(const Param& p, size_t k) {
  std::string a = "a[" + std::to_string(k) + "]";
  if (p.IsArray()) {
    return "static_cast<" + std::string(CTypeName(p.type)) + "*>(" + a +
           ".ptr)";
  }
  if (IsByPointer(p)) {
    return "static_cast<" + std::string(CResultTypeName(p.type)) + "*>(" + a +
           ".ptr)";
  }
  switch (p.type) {
    case GS_TYPE_FILE:
    case GS_TYPE_STRING:
      return a + ".str";
    case GS_TYPE_DOUBLE:
      return a + ".d";
    case GS_TYPE_FLOAT:
      return "static_cast<float>(" + a + ".d)";
    default:
      return "static_cast<" + std::string(CTypeName(p.type)) + ">(" + a + ".i)";
  }
}

// A C string literal of any bytes (a program's arguments may hold quotes,
// backslashes, newlines).
std::string CString(const std::string& text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c < 0x20 || c >= 0x7f || c == '?') {
      // Octal, three digits: no following digit can extend it.
      out += '\\';
      out += static_cast<char>('0' + (c >> 6));
      out += static_cast<char>('0' + ((c >> 3) & 7));
      out += static_cast<char>('0' + (c & 7));
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

int ParamIndex(const Operation& op, const std::string& name) {
  for (size_t k = 0; k < op.params.size(); ++k) {
    if (op.params[k].name == name) return static_cast<int>(k);
  }
  return -1;
}

// gs_binary's mpi_* fields after the others: an @MPI program's runner and
// ranks, or none.
std::vector<std::string> MpiFields(const BinarySpec& b,
                                   std::vector<std::string> fields) {
  if (b.mpi) {
    fields.push_back(CString(b.mpi->runner));
    fields.push_back(std::to_string(b.mpi->processes));
    fields.push_back(std::to_string(b.mpi->per_node > 0 ? b.mpi->per_node
                                                        : b.mpi->processes));
  } else {
    fields.insert(fields.end(), {"nullptr", "0", "0"});
  }
  return fields;
}

// A @Binary operation's function: its program's table, and a definition
// that runs it (gs_run_binary), for the worker and the sequential build.
std::string BinaryFunction(const Operation& op) {
  const BinarySpec& b = *op.binary;
  std::string text;
  std::string args_name = "nullptr";
  if (b.has_args) {
    args_name = "gs_bin_args_" + op.name;
    text += "static const char* const " + args_name + "[] = {";
    if (b.args.empty()) text += "nullptr";
    for (size_t i = 0; i < b.args.size(); ++i) {
      text += (i ? ", " : "") + CString(b.args[i]);
    }
    text += "};\n";
  }
  std::string success_name = "nullptr";
  if (!b.success.empty()) {
    success_name = "gs_bin_success_" + op.name;
    text += "static const int " + success_name + "[] = {";
    for (size_t i = 0; i < b.success.size(); ++i) {
      text += (i ? ", " : "") + std::to_string(b.success[i]);
    }
    text += "};\n";
  }
  text +=
      WrapList("", "static const gs_binary gs_bin_" + op.name + " = ", "{", "}",
               MpiFields(b, {CString(b.program), args_name,
                             std::to_string(b.args.size()),
                             std::to_string(ParamIndex(op, b.stdin_param)),
                             std::to_string(ParamIndex(op, b.stdout_param)),
                             std::to_string(ParamIndex(op, b.stderr_param)),
                             success_name, std::to_string(b.success.size())}),
               ";") +
      "\n";
  text += CDeclaration(op, " {") + "\n" + PackArgs(op);
  text += "  char gs_error[4096];\n";
  text += WrapCall("  ", "if (gs_run_binary",
                   {"&gs_bin_" + op.name, "&gs_op_" + op.name, "gs_args",
                    "gs_error", "sizeof gs_error"},
                   " != 0)") +
          "\n";
  text += "    throw std::runtime_error(gs_error);\n}\n";
  return text;
}

std::string Trampoline(const Operation& op) {
  bool has_ret = op.return_type != GS_TYPE_VOID;
  std::string text = "static void tramp_" + op.name + "(const gs_arg* " +
                     (op.params.empty() ? "/*a*/" : "a") + ", void* " +
                     (has_ret ? "ret" : "/*ret*/") + ") {\n";
  std::vector<std::string> args;
  for (size_t k = 0; k < op.params.size(); ++k) {
    args.push_back(DecodedArg(op.params[k], k));
  }
  std::string head = op.name;
  if (has_ret) {
    head = "*static_cast<" + CReturnTypeName(op) + "*>(ret) = " + op.name;
  }
  return text + WrapCall("  ", head, args, ";") + "\n}\n";
}

// The operations told to the runtime before main (gs_register_operations),
// so GS_On can check gsrt.yaml's per-operation keys.
std::string Registration(const Interface& iface) {
  if (iface.operations.empty()) return "";  // no empty arrays in C++
  std::string text =
      "\n// The operations this program may call, told to gsrt before main "
      "so that\n// GS_On can check the operation names in gsrt.yaml.\n"
      "static const gs_operation* const gs_operations[] = {\n";
  for (const Operation& op : iface.operations) {
    text += "    &gs_op_" + op.name + ",\n";
  }
  return text + "};\n[[maybe_unused]] static const int gs_registered =\n" +
         "    gs_register_operations(\"" + iface.name + "\", gs_operations, " +
         std::to_string(iface.operations.size()) + ");\n";
}

}  // namespace

std::string EmitHeader(const Interface& iface, const EmitNames& names) {
  std::string guard = IncludeGuard(names.base);
  std::string text = Banner(
      names, "The operations of interface '" + iface.name +
                 "', for the master (which calls them) and the functions "
                 "file (which implements them).");
  text += "#ifndef " + guard + "\n#define " + guard + "\n\n";
  text += "#include <stdbool.h>\n\n";
  text += "#ifdef __cplusplus\nextern \"C\" {\n#endif\n";
  for (const Operation& op : iface.operations) {
    text += "\n" + OperationComment(op) + CDeclaration(op, ";") + "\n";
  }
  text += "\n#ifdef __cplusplus\n}\n#endif\n\n";
  text += "#endif  // " + guard + "\n";
  return text;
}

std::string EmitStubs(const Interface& iface, const EmitNames& names) {
  std::string text = Banner(
      names, "Master side: each call becomes a task of the gsrt runtime.");
  text += Includes(names) + OperationTables(iface);
  for (size_t i = 0; i < iface.operations.size(); ++i) {
    if (i > 0) text += "\n";
    text += Stub(iface.operations[i]);
  }
  return text + Registration(iface);
}

std::string EmitWorker(const Interface& iface, const EmitNames& names) {
  std::string text = Banner(names,
                            "Worker program: runs one operation per invocation "
                            "(see gs_worker_main).");
  text += Includes(names) + OperationTables(iface);
  for (const Operation& op : iface.operations) text += Trampoline(op) + "\n";
  text += "static const gs_worker_entry gs_entries[] = {\n";
  for (const Operation& op : iface.operations) {
    text += "    {&gs_op_" + op.name + ", tramp_" + op.name + "},\n";
  }
  text += "};\n\n";
  text += "int main(int argc, char** argv) {\n";
  text += WrapCall("  ", "return gs_worker_main",
                   {"argc", "argv", "\"" + iface.name + "\"", "gs_entries",
                    std::to_string(iface.operations.size())},
                   ";") +
          "\n}\n";
  return text;
}

std::string EmitBinaries(const Interface& iface, const EmitNames& names) {
  std::string text = Banner(
      names,
      "The operations that run programs (@Binary): their functions, for the "
      "worker and the sequential build.");
  std::string functions;
  for (const Operation& op : iface.operations) {
    if (op.binary) functions += "\n" + BinaryFunction(op);
  }
  if (functions.empty()) return text + "// (none)\n";
  text += "#include <stdexcept>\n\n" + Includes(names) +
          OperationTables(iface) + functions;
  return text;
}

std::vector<GeneratedFile> EmitAll(const Interface& iface,
                                   const EmitNames& names) {
  return {
      {names.base + ".h", EmitHeader(iface, names)},
      {names.base + "-stubs.cc", EmitStubs(iface, names)},
      {names.base + "-worker.cc", EmitWorker(iface, names)},
      {names.base + "-binaries.cc", EmitBinaries(iface, names)},
  };
}

}  // namespace gs
