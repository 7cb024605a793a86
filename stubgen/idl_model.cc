#include "stubgen/idl_model.h"

namespace gs {

namespace {

struct TypeInfo {
  gs_type type;
  const char* idl;
  const char* c;
  const char* abi;
};

constexpr TypeInfo kTypes[] = {
    {GS_TYPE_VOID, "void", "void", "GS_TYPE_VOID"},
    {GS_TYPE_FILE, "File", "const char*", "GS_TYPE_FILE"},
    {GS_TYPE_STRING, "string", "const char*", "GS_TYPE_STRING"},
    {GS_TYPE_CHAR, "char", "char", "GS_TYPE_CHAR"},
    {GS_TYPE_BOOLEAN, "boolean", "bool", "GS_TYPE_BOOLEAN"},
    {GS_TYPE_SHORT, "short", "short", "GS_TYPE_SHORT"},
    {GS_TYPE_INT, "int", "int", "GS_TYPE_INT"},
    {GS_TYPE_LONG, "long", "long", "GS_TYPE_LONG"},
    {GS_TYPE_FLOAT, "float", "float", "GS_TYPE_FLOAT"},
    {GS_TYPE_DOUBLE, "double", "double", "GS_TYPE_DOUBLE"},
};

const TypeInfo& Info(gs_type type) {
  for (const TypeInfo& info : kTypes) {
    if (info.type == type) return info;
  }
  return kTypes[0];
}

struct DirInfo {
  gs_dir dir;
  const char* idl;
  const char* abi;
};

constexpr DirInfo kDirs[] = {
    {GS_DIR_IN, "in", "GS_DIR_IN"},
    {GS_DIR_OUT, "out", "GS_DIR_OUT"},
    {GS_DIR_INOUT, "inout", "GS_DIR_INOUT"},
};

const DirInfo& Info(gs_dir dir) {
  for (const DirInfo& info : kDirs) {
    if (info.dir == dir) return info;
  }
  return kDirs[0];
}

}  // namespace

bool IsScalar(gs_type type) {
  return type != GS_TYPE_VOID && type != GS_TYPE_FILE && type != GS_TYPE_STRING;
}

const char* IdlTypeName(gs_type type) { return Info(type).idl; }
const char* IdlDirName(gs_dir dir) { return Info(dir).idl; }
const char* CTypeName(gs_type type) { return Info(type).c; }
const char* AbiTypeName(gs_type type) { return Info(type).abi; }
const char* AbiDirName(gs_dir dir) { return Info(dir).abi; }

std::optional<gs_type> TypeFromIdlName(std::string_view name) {
  for (const TypeInfo& info : kTypes) {
    if (name == info.idl) return info.type;
  }
  return std::nullopt;
}

std::optional<gs_dir> DirFromIdlName(std::string_view name) {
  for (const DirInfo& info : kDirs) {
    if (name == info.idl) return info.dir;
  }
  return std::nullopt;
}

const char* CResultTypeName(gs_type type) {
  return type == GS_TYPE_STRING ? "char*" : CTypeName(type);
}

std::string CReturnTypeName(const Operation& op) {
  std::string text = CResultTypeName(op.return_type);
  return op.return_array_length > 0 ? text + "*" : text;
}

std::string IdlReturnTypeName(const Operation& op) {
  std::string text = IdlTypeName(op.return_type);
  if (op.return_array_length > 0) {
    text += "[" + std::to_string(op.return_array_length) + "]";
  }
  return text;
}

bool IsByPointer(const Param& param) {
  return param.IsArray() ||
         (param.dir != GS_DIR_IN &&
          (IsScalar(param.type) || param.type == GS_TYPE_STRING));
}

std::string IdlParamTypeName(const Param& param) {
  std::string text = IdlTypeName(param.type);
  if (param.array_length > 0) {
    return text + "[" + std::to_string(param.array_length) + "]";
  }
  if (!param.length_param.empty()) return text + "[" + param.length_param + "]";
  return text;
}

std::string Signature(const Operation& op) {
  std::string text = IdlReturnTypeName(op);
  text += ' ';
  text += op.name;
  text += '(';
  for (size_t i = 0; i < op.params.size(); ++i) {
    const Param& p = op.params[i];
    if (i > 0) text += ", ";
    text += IdlDirName(p.dir);
    text += ' ';
    text += IdlParamTypeName(p);
    text += ' ';
    text += p.name;
  }
  text += ')';
  return text;
}

}  // namespace gs
