#include "runtime/engine/call_text.h"

#include <cstdio>
#include <cstring>

#include "runtime/base/array_codec.h"
#include "runtime/base/scalar_codec.h"

namespace gs {

namespace {

constexpr size_t kMaxStringArgBytes = 40;

std::string Quoted(std::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s.substr(0, kMaxStringArgBytes)) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  if (s.size() > kMaxStringArgBytes) out += "...";
  return out + "\"";
}

// An encoded scalar as a person reads it (the codec writes floating point
// in hexadecimal so it round-trips; people read decimal).
std::string Readable(gs_type type, std::string_view encoded) {
  if (type == GS_TYPE_STRING) return Quoted(encoded);
  alignas(8) unsigned char value[16] = {};
  if (!DecodeValue(type, encoded, value)) return std::string(encoded);
  char buf[64];
  switch (type) {
    case GS_TYPE_FLOAT: {
      float f;
      std::memcpy(&f, value, sizeof f);
      std::snprintf(buf, sizeof buf, "%g", static_cast<double>(f));
      return buf;
    }
    case GS_TYPE_DOUBLE: {
      double d;
      std::memcpy(&d, value, sizeof d);
      std::snprintf(buf, sizeof buf, "%g", d);
      return buf;
    }
    case GS_TYPE_CHAR: {
      char c;
      std::memcpy(&c, value, sizeof c);
      if (c < 0x20 || c == 0x7f) return std::string(encoded);
      return std::string("'") + c + "'";
    }
    case GS_TYPE_BOOLEAN:
      return encoded == "0" ? "false" : "true";
    default:
      return std::string(encoded);
  }
}

}  // namespace

std::string FormatCall(const gs_operation& op, std::string_view scalars,
                       const std::vector<std::string>& files,
                       size_t max_bytes) {
  std::string out = std::string(op.name) + "(";
  size_t pos = 0;
  size_t file = 0;
  for (int i = 0; i < op.num_params; ++i) {
    const gs_param_desc& p = op.params[i];
    if (i > 0) out += ", ";
    if (p.type == GS_TYPE_FILE) {
      out += file < files.size() ? files[file] : "?";
      ++file;
      continue;
    }
    size_t end = scalars.find('\0', pos);
    std::string_view value = scalars.substr(pos, end - pos);
    pos = end == std::string_view::npos ? scalars.size() : end + 1;
    if (p.dir == GS_DIR_OUT) {
      out += std::string("out ") + p.name;
    } else if (IsArrayParam(p)) {
      out += "[" + std::string(value) + "]";
    } else {
      out += Readable(p.type, value);
    }
  }
  out += ")";
  if (out.size() <= max_bytes) return out;
  size_t cut = max_bytes > 4 ? max_bytes - 4 : 0;
  while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) {
    --cut;
  }
  return out.substr(0, cut) + "...)";
}

}  // namespace gs
