#include "runtime/base/scalar_codec.h"

#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace gs {

namespace {

std::string FormatInt(long long v) { return std::to_string(v); }

std::string FormatDouble(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%a", v);
  return buf;
}

bool ParseInt(std::string_view text, long long lo, long long hi,
              long long* out) {
  if (text.empty()) return false;
  std::string s(text);
  char* end = nullptr;
  errno = 0;
  long long v = std::strtoll(s.c_str(), &end, 10);
  if (errno != 0 || *end != '\0' || v < lo || v > hi) return false;
  *out = v;
  return true;
}

bool ParseDouble(std::string_view text, double* out) {
  if (text.empty()) return false;
  std::string s(text);
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (*end != '\0') return false;
  *out = v;
  return true;
}

}  // namespace

size_t ScalarSize(gs_type type) {
  switch (type) {
    case GS_TYPE_CHAR:
      return sizeof(char);
    case GS_TYPE_BOOLEAN:
      return sizeof(bool);
    case GS_TYPE_SHORT:
      return sizeof(short);
    case GS_TYPE_INT:
      return sizeof(int);
    case GS_TYPE_LONG:
      return sizeof(long);
    case GS_TYPE_FLOAT:
      return sizeof(float);
    case GS_TYPE_DOUBLE:
      return sizeof(double);
    default:
      return 0;
  }
}

const char* TypeName(gs_type type) {
  switch (type) {
    case GS_TYPE_VOID:
      return "void";
    case GS_TYPE_FILE:
      return "File";
    case GS_TYPE_STRING:
      return "string";
    case GS_TYPE_CHAR:
      return "char";
    case GS_TYPE_BOOLEAN:
      return "boolean";
    case GS_TYPE_SHORT:
      return "short";
    case GS_TYPE_INT:
      return "int";
    case GS_TYPE_LONG:
      return "long";
    case GS_TYPE_FLOAT:
      return "float";
    case GS_TYPE_DOUBLE:
      return "double";
  }
  return "?";
}

std::string EncodeValue(gs_type type, const void* ptr) {
  switch (type) {
    case GS_TYPE_CHAR:
      return FormatInt(
          static_cast<unsigned char>(*static_cast<const char*>(ptr)));
    case GS_TYPE_BOOLEAN:
      return *static_cast<const bool*>(ptr) ? "1" : "0";
    case GS_TYPE_SHORT:
      return FormatInt(*static_cast<const short*>(ptr));
    case GS_TYPE_INT:
      return FormatInt(*static_cast<const int*>(ptr));
    case GS_TYPE_LONG:
      return FormatInt(*static_cast<const long*>(ptr));
    case GS_TYPE_FLOAT:
      return FormatDouble(*static_cast<const float*>(ptr));
    case GS_TYPE_DOUBLE:
      return FormatDouble(*static_cast<const double*>(ptr));
    case GS_TYPE_FILE:
    case GS_TYPE_STRING: {
      // An inout string the caller left NULL goes as the empty string.
      const char* s = *static_cast<const char* const*>(ptr);
      return s != nullptr ? s : "";
    }
    case GS_TYPE_VOID:
      break;
  }
  return "";
}

std::string EncodeArg(gs_type type, const gs_arg& arg, bool by_pointer) {
  if (by_pointer) return EncodeValue(type, arg.ptr);
  switch (type) {
    case GS_TYPE_CHAR:
      return FormatInt(static_cast<unsigned char>(arg.i));
    case GS_TYPE_BOOLEAN:
      return arg.i ? "1" : "0";
    case GS_TYPE_SHORT:
    case GS_TYPE_INT:
    case GS_TYPE_LONG:
      return FormatInt(arg.i);
    case GS_TYPE_FLOAT:
    case GS_TYPE_DOUBLE:
      return FormatDouble(arg.d);
    case GS_TYPE_FILE:
    case GS_TYPE_STRING:
      return arg.str ? arg.str : "";
    case GS_TYPE_VOID:
      break;
  }
  return "";
}

bool DecodeValue(gs_type type, std::string_view text, void* ptr) {
  long long i = 0;
  double d = 0;
  switch (type) {
    case GS_TYPE_CHAR:
      if (!ParseInt(text, 0, 255, &i)) return false;
      *static_cast<char*>(ptr) = static_cast<char>(i);
      return true;
    case GS_TYPE_BOOLEAN:
      if (!ParseInt(text, 0, 1, &i)) return false;
      *static_cast<bool*>(ptr) = i != 0;
      return true;
    case GS_TYPE_SHORT:
      if (!ParseInt(text, -32768, 32767, &i)) return false;
      *static_cast<short*>(ptr) = static_cast<short>(i);
      return true;
    case GS_TYPE_INT:
      if (!ParseInt(text, INT32_MIN, INT32_MAX, &i)) return false;
      *static_cast<int*>(ptr) = static_cast<int>(i);
      return true;
    case GS_TYPE_LONG:
      if (!ParseInt(text, LLONG_MIN, LLONG_MAX, &i)) return false;
      *static_cast<long*>(ptr) = static_cast<long>(i);
      return true;
    case GS_TYPE_FLOAT:
      if (!ParseDouble(text, &d)) return false;
      *static_cast<float*>(ptr) = static_cast<float>(d);
      return true;
    case GS_TYPE_DOUBLE:
      if (!ParseDouble(text, &d)) return false;
      *static_cast<double*>(ptr) = d;
      return true;
    default:
      return false;
  }
}

}  // namespace gs
