#include "runtime/base/result_values.h"

#include <cstdlib>
#include <cstring>
#include <new>

#include "runtime/base/scalar_codec.h"

namespace gs {

namespace {

std::string Escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        out += c;
    }
  }
  return out;
}

bool Unescape(std::string_view line, std::string* out) {
  out->clear();
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (c != '\\') {
      *out += c;
      continue;
    }
    if (++i == line.size()) return false;
    switch (line[i]) {
      case '\\':
        *out += '\\';
        break;
      case 'n':
        *out += '\n';
        break;
      case 'r':
        *out += '\r';
        break;
      default:
        return false;
    }
  }
  return true;
}

}  // namespace

bool IsResultParam(const gs_param_desc& param) {
  return param.dir != GS_DIR_IN && param.type != GS_TYPE_FILE;
}

void StoreString(std::string_view text, void* slot) {
  char** var = static_cast<char**>(slot);
  char* copy = static_cast<char*>(std::malloc(text.size() + 1));
  if (copy == nullptr) throw std::bad_alloc();
  if (!text.empty()) std::memcpy(copy, text.data(), text.size());
  copy[text.size()] = '\0';
  std::free(*var);
  *var = copy;
}

std::string EncodeResultLine(gs_type type, const void* ptr) {
  if (type == GS_TYPE_STRING) {
    const char* s = *static_cast<const char* const*>(ptr);
    return Escape(s != nullptr ? s : "");
  }
  return EncodeValue(type, ptr);
}

bool DecodeResultLine(gs_type type, std::string_view line, void* ptr) {
  if (type == GS_TYPE_STRING) {
    std::string text;
    if (!Unescape(line, &text) || text.find('\0') != std::string::npos) {
      return false;
    }
    StoreString(text, ptr);
    return true;
  }
  return DecodeValue(type, line, ptr);
}

}  // namespace gs
