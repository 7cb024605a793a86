#include "runtime/base/array_codec.h"

#include "runtime/base/scalar_codec.h"

namespace gs {

bool IsArrayParam(const gs_param_desc& param) {
  return param.array_length > 0 || param.length_param > 0;
}

StatusOr<size_t> ArrayLength(const gs_operation& op, int k,
                             const gs_arg* args) {
  const gs_param_desc& p = op.params[k];
  if (p.array_length > 0) return static_cast<size_t>(p.array_length);
  const int index = p.length_param - 1;
  if (index < 0 || index >= op.num_params) {
    return Status::InvalidArgument("operation '" + std::string(op.name) +
                                   "': array '" + p.name +
                                   "' has no length parameter");
  }
  const long long n = args[index].i;
  if (n < 0 || static_cast<unsigned long long>(n) > kMaxArrayElements) {
    return Status::InvalidArgument(
        "operation '" + std::string(op.name) + "': array '" + p.name +
        "' would have " + std::to_string(n) + " elements (parameter '" +
        op.params[index].name + "'); it may have 0 to " +
        std::to_string(kMaxArrayElements) + ". Pass bigger data in a File");
  }
  return static_cast<size_t>(n);
}

std::string EncodeArray(gs_type type, const void* data, size_t n) {
  const size_t size = ScalarSize(type);
  const auto* bytes = static_cast<const unsigned char*>(data);
  std::string text;
  for (size_t i = 0; i < n; ++i) {
    if (i > 0) text += ',';
    text += EncodeValue(type, bytes + i * size);
  }
  return text;
}

Status DecodeArray(gs_type type, std::string_view text, size_t n, void* data) {
  const size_t size = ScalarSize(type);
  auto* bytes = static_cast<unsigned char*>(data);
  size_t count = 0;
  size_t pos = 0;
  while (!text.empty() && pos <= text.size()) {
    size_t comma = text.find(',', pos);
    if (comma == std::string_view::npos) comma = text.size();
    std::string_view item = text.substr(pos, comma - pos);
    if (count < n && !DecodeValue(type, item, bytes + count * size)) {
      return Status::InvalidArgument("value " + std::to_string(count) + " '" +
                                     std::string(item.substr(0, 40)) +
                                     "' is not a " + TypeName(type));
    }
    ++count;
    pos = comma + 1;
  }
  if (count != n) {
    return Status::InvalidArgument("expected " + std::to_string(n) +
                                   " values, got " + std::to_string(count));
  }
  return Status::Ok();
}

std::string ArrayTypeName(const gs_operation& op, const gs_param_desc& param) {
  std::string text = TypeName(param.type);
  if (param.array_length > 0) {
    return text + "[" + std::to_string(param.array_length) + "]";
  }
  if (param.length_param > 0 && param.length_param <= op.num_params) {
    return text + "[" + op.params[param.length_param - 1].name + "]";
  }
  return text;
}

}  // namespace gs
