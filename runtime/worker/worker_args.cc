#include "runtime/worker/worker_args.h"

#include <cstdlib>
#include <cstring>
#include <utility>

#include "runtime/base/array_codec.h"
#include "runtime/base/result_values.h"
#include "runtime/base/scalar_codec.h"

namespace gs {

namespace {

bool IsScalarType(gs_type type) { return ScalarSize(type) > 0; }

const char* DirName(gs_dir dir) {
  switch (dir) {
    case GS_DIR_IN:
      return "in";
    case GS_DIR_OUT:
      return "out";
    case GS_DIR_INOUT:
      return "inout";
  }
  return "?";
}

// An `in` scalar goes by value: integers in `i`, floating point in `d`.
bool DecodeInScalar(gs_type type, const char* text, gs_arg* arg) {
  ScalarSlot slot;
  if (!DecodeValue(type, text, slot.bytes)) return false;
  const void* p = slot.bytes;
  switch (type) {
    case GS_TYPE_CHAR:
      arg->i = *static_cast<const char*>(p);
      break;
    case GS_TYPE_BOOLEAN:
      arg->i = *static_cast<const bool*>(p) ? 1 : 0;
      break;
    case GS_TYPE_SHORT:
      arg->i = *static_cast<const short*>(p);
      break;
    case GS_TYPE_INT:
      arg->i = *static_cast<const int*>(p);
      break;
    case GS_TYPE_LONG:
      arg->i = *static_cast<const long*>(p);
      break;
    case GS_TYPE_FLOAT:
      arg->d = *static_cast<const float*>(p);
      break;
    case GS_TYPE_DOUBLE:
      arg->d = *static_cast<const double*>(p);
      break;
    default:
      return false;
  }
  return true;
}

}  // namespace

DecodedCall::DecodedCall(DecodedCall&& other) noexcept {
  *this = std::move(other);
}

DecodedCall& DecodedCall::operator=(DecodedCall&& other) noexcept {
  if (this == &other) return *this;
  FreeStrings();
  args = std::move(other.args);
  slots = std::move(other.slots);
  arrays = std::move(other.arrays);
  array_lengths = std::move(other.array_lengths);
  result = other.result;
  owned_strings = std::move(other.owned_strings);
  owns_result = std::exchange(other.owns_result, false);
  other.owned_strings.clear();
  return *this;
}

DecodedCall::~DecodedCall() { FreeStrings(); }

void DecodedCall::FreeStrings() {
  for (size_t k : owned_strings) {
    std::free(*reinterpret_cast<char**>(slots[k].bytes));
  }
  owned_strings.clear();
  if (owns_result) std::free(*reinterpret_cast<void**>(result.bytes));
  owns_result = false;
}

bool IsReported(const gs_param_desc& param) { return IsResultParam(param); }

Status DecodeCall(const gs_operation& op,
                  const std::vector<const char*>& values, DecodedCall* call) {
  size_t n = static_cast<size_t>(op.num_params);
  if (values.size() != n) {
    std::string names;
    for (size_t k = 0; k < n; ++k) {
      names += (k > 0 ? ", " : "") + std::string(op.params[k].name);
    }
    return Status::InvalidArgument(
        "operation '" + std::string(op.name) + "' takes " + std::to_string(n) +
        " argument" + (n == 1 ? "" : "s") +
        (n > 0 ? " (" + names + ")" : std::string()) + ", got " +
        std::to_string(values.size()));
  }
  call->FreeStrings();
  call->args.assign(n, gs_arg{});
  call->slots.assign(n, ScalarSlot{});
  call->arrays.assign(n, {});
  call->array_lengths.assign(n, 0);
  call->result = ScalarSlot{};
  call->owned_strings.clear();
  call->owns_result =
      op.return_type == GS_TYPE_STRING || op.return_array_length > 0;
  for (size_t k = 0; k < n; ++k) {
    const gs_param_desc& p = op.params[k];
    gs_arg& arg = call->args[k];
    bool ok = true;
    if (IsArrayParam(p)) {
      continue;  // below, once the length parameters are decoded
    } else if (p.type == GS_TYPE_STRING && p.dir != GS_DIR_IN) {
      arg.ptr = call->slots[k].bytes;
      call->owned_strings.push_back(k);
      if (p.dir == GS_DIR_INOUT) StoreString(values[k], arg.ptr);
    } else if (!IsScalarType(p.type)) {
      arg.str = values[k];
    } else if (p.dir == GS_DIR_IN) {
      ok = DecodeInScalar(p.type, values[k], &arg);
    } else {
      arg.ptr = call->slots[k].bytes;
      if (p.dir == GS_DIR_INOUT) ok = DecodeValue(p.type, values[k], arg.ptr);
    }
    if (!ok) {
      return Status::InvalidArgument("operation '" + std::string(op.name) +
                                     "', parameter '" + p.name + "' (" +
                                     DirName(p.dir) + " " + TypeName(p.type) +
                                     "): cannot decode '" + values[k] + "'");
    }
  }
  for (size_t k = 0; k < n; ++k) {
    const gs_param_desc& p = op.params[k];
    if (!IsArrayParam(p)) continue;
    StatusOr<size_t> length =
        ArrayLength(op, static_cast<int>(k), call->args.data());
    if (!length.ok()) return length.status();
    // One spare element: a 0-length array still gets a valid pointer.
    std::vector<double>& elements = call->arrays[k];
    elements.assign(
        (*length * ScalarSize(p.type) + sizeof(double) - 1) / sizeof(double) +
            1,
        0.0);
    call->array_lengths[k] = *length;
    call->args[k].ptr = elements.data();
    if (p.dir == GS_DIR_OUT) continue;
    Status decoded = DecodeArray(p.type, values[k], *length, elements.data());
    if (!decoded.ok()) {
      return Status::InvalidArgument(
          "operation '" + std::string(op.name) + "', parameter '" + p.name +
          "' (" + DirName(p.dir) + " " + ArrayTypeName(op, p) +
          "): " + decoded.message());
    }
  }
  return Status::Ok();
}

namespace {

// A string result must be set and fit in a line of the result file.
Status CheckString(const gs_operation& op, const char* what,
                   const ScalarSlot& slot) {
  const char* s = *reinterpret_cast<const char* const*>(slot.bytes);
  std::string where = "operation '" + std::string(op.name) + "': " + what;
  if (s == nullptr) {
    return Status::InvalidArgument(
        where + " is NULL; set it to a malloc'd string (e.g. strdup(\"\"))");
  }
  size_t size = std::strlen(s);
  if (size > kMaxStringResultBytes) {
    return Status::InvalidArgument(
        where + " is " + std::to_string(size) + " bytes, more than the " +
        std::to_string(kMaxStringResultBytes) +
        " a string result may hold; write big results to an out File");
  }
  return Status::Ok();
}

}  // namespace

StatusOr<std::string> EncodeResults(const gs_operation& op,
                                    const DecodedCall& call) {
  std::string text;
  if (op.return_array_length > 0) {
    const void* array = *reinterpret_cast<void* const*>(call.result.bytes);
    if (array == nullptr) {
      return Status::InvalidArgument(
          "operation '" + std::string(op.name) +
          "': the returned array is NULL; return a malloc'd array of " +
          std::to_string(op.return_array_length) + " " +
          TypeName(op.return_type));
    }
    text += EncodeArray(op.return_type, array,
                        static_cast<size_t>(op.return_array_length)) +
            "\n";
  } else if (op.return_type != GS_TYPE_VOID) {
    if (op.return_type == GS_TYPE_STRING) {
      Status s = CheckString(op, "the returned string", call.result);
      if (!s.ok()) return s;
    }
    text += EncodeResultLine(op.return_type, call.result.bytes) + "\n";
  }
  for (int k = 0; k < op.num_params; ++k) {
    const gs_param_desc& p = op.params[k];
    if (!IsReported(p)) continue;
    if (p.type == GS_TYPE_STRING) {
      Status s = CheckString(
          op,
          (std::string(DirName(p.dir)) + " string '" + p.name + "'").c_str(),
          call.slots[k]);
      if (!s.ok()) return s;
    }
    if (IsArrayParam(p)) {
      text +=
          EncodeArray(p.type, call.arrays[k].data(), call.array_lengths[k]) +
          "\n";
      continue;
    }
    text += EncodeResultLine(p.type, call.slots[k].bytes) + "\n";
  }
  return text;
}

std::string OperationSignature(const gs_operation& op) {
  std::string text = TypeName(op.return_type);
  if (op.return_array_length > 0) {
    text += "[" + std::to_string(op.return_array_length) + "]";
  }
  text += ' ';
  text += op.name;
  text += '(';
  for (int k = 0; k < op.num_params; ++k) {
    const gs_param_desc& p = op.params[k];
    if (k > 0) text += ", ";
    text += DirName(p.dir);
    text += ' ';
    text += IsArrayParam(p) ? ArrayTypeName(op, p) : TypeName(p.type);
    text += ' ';
    text += p.name;
  }
  return text + ")";
}

}  // namespace gs
