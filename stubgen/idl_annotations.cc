#include "stubgen/idl_annotations.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "stubgen/idl_binary.h"

namespace gs {
namespace {

constexpr const char kHonoured[] =
    "ComputingUnits, MemorySize (in GB), GPUs and processorType=GPU";

// COMPSs's other constraint keys, normalised as NormalizeAnnotationKey() does:
// accepted by COMPSs, not (yet) by gsrt.
constexpr std::string_view kUnsupported[] = {"processorname",
                                             "processorspeed",
                                             "processorarchitecture",
                                             "processorpropertyname",
                                             "processorpropertyvalue",
                                             "processorinternalmemorysize",
                                             "processors",
                                             "memorytype",
                                             "storagesize",
                                             "storagetype",
                                             "storagebw",
                                             "operatingsystemtype",
                                             "operatingsystemdistribution",
                                             "operatingsystemversion",
                                             "appsoftware",
                                             "hostqueues"};

std::string Stripped(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

}  // namespace

std::string NormalizeAnnotationKey(std::string_view key) {
  std::string out;
  for (char c : key) {
    if (c == '_') continue;
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

namespace {

// Splits "a=1, b=\"x, y\"" at commas outside quotes.
std::vector<std::string> SplitItems(std::string_view text) {
  std::vector<std::string> items;
  std::string cur;
  bool quoted = false;
  for (char c : text) {
    if (c == '"') quoted = !quoted;
    if (c == ',' && !quoted) {
      items.push_back(Stripped(cur));
      cur.clear();
      continue;
    }
    cur += c;
  }
  items.push_back(Stripped(cur));
  return items;
}

// A positive number, quoted or not (COMPSs writes values as strings).
bool ParsePositive(std::string value, double* out) {
  if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
    value = Stripped(value.substr(1, value.size() - 2));
  }
  if (value.empty()) return false;
  char* end = nullptr;
  double v = std::strtod(value.c_str(), &end);
  if (*end != '\0' || !std::isfinite(v) || v <= 0) return false;
  *out = v;
  return true;
}

bool ApplyConstraints(const std::string& text, Operation* op,
                      std::string* error) {
  if (text.empty()) {
    *error = "empty @Constraints(); write e.g. @Constraints(ComputingUnits=2)";
    return false;
  }
  // COMPSs's processorType=GPU: its ComputingUnits are GPUs (the job still
  // holds one core to drive them).
  bool gpu_processor = false;
  for (const std::string& item : SplitItems(text)) {
    size_t eq = item.find('=');
    if (eq == std::string::npos) {
      *error = "@Constraints item '" + item +
               "' is not key=value; write e.g. ComputingUnits=2";
      return false;
    }
    std::string key = Stripped(item.substr(0, eq));
    std::string value = Stripped(item.substr(eq + 1));
    std::string norm = NormalizeAnnotationKey(key);
    double v = 0;
    if (norm == "computingunits") {
      if (!ParsePositive(value, &v) || v != std::floor(v) || v > 1 << 20) {
        *error =
            "ComputingUnits must be a whole number of cores (1 or more), "
            "got '" +
            value + "'";
        return false;
      }
      op->computing_units = static_cast<int>(v);
    } else if (norm == "memorysize") {
      if (!ParsePositive(value, &v)) {
        *error =
            "MemorySize must be a positive number of GB, got '" + value + "'";
        return false;
      }
      op->memory_gb = v;
    } else if (norm == "gpus" || norm == "gpu") {
      if (!ParsePositive(value, &v) || v != std::floor(v) || v > 1 << 10) {
        *error = "GPUs must be a whole number of devices (1 or more), got '" +
                 value + "'";
        return false;
      }
      op->gpus = static_cast<int>(v);
    } else if (norm == "processortype") {
      std::string type = value;
      if (type.size() >= 2 && type.front() == '"' && type.back() == '"')
        type = Stripped(type.substr(1, type.size() - 2));
      if (NormalizeAnnotationKey(type) == "gpu") {
        gpu_processor = true;
      } else if (NormalizeAnnotationKey(type) != "cpu") {
        *error = "processorType must be CPU or GPU, got '" + value + "'";
        return false;
      }
    } else if (norm == "wallclocklimit") {
      *error = "@Constraints key '" + key +
               "' is not supported; use @Timeout(seconds) on its own line";
      return false;
    } else {
      bool known = false;
      for (std::string_view k : kUnsupported) known |= norm == k;
      *error = (known ? "@Constraints key '" + key +
                            "' is COMPSs's but gsrt does not honour it"
                      : "unknown @Constraints key '" + key + "'") +
               "; gsrt honours " + kHonoured +
               ": remove it or choose hosts "
               "for it in the configuration";
      return false;
    }
  }
  if (gpu_processor) {
    if (op->gpus > 0) {
      *error =
          "write either GPUs=k or processorType=GPU with ComputingUnits=k, "
          "not both";
      return false;
    }
    op->gpus = std::max(1, op->computing_units);
    op->computing_units = 0;
  }
  return true;
}

}  // namespace

bool ApplyAnnotation(const Token& annotation, Operation* op,
                     std::string* error) {
  if (annotation.text == "Constraints") {
    return ApplyConstraints(annotation.value, op, error);
  }
  if (annotation.text == "Binary") {
    BinarySpec spec;
    if (!ParseBinaryAnnotation(annotation.value, &spec, error)) return false;
    op->binary = std::move(spec);
    return true;
  }
  if (annotation.text == "MPI") {
    BinarySpec spec;
    if (!ParseBinaryAnnotation(annotation.value, &spec, error, /*mpi=*/true))
      return false;
    op->binary = std::move(spec);
    return true;
  }
  if (annotation.text == "Implements") {
    const std::string& name = annotation.value;
    bool ident =
        !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0]));
    for (char c : name) {
      ident &= std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    }
    if (!ident) {
      *error =
          "@Implements takes the name of the operation this one "
          "implements, got '" +
          name + "'";
      return false;
    }
    return true;
  }
  double v = 0;
  if (!ParsePositive(annotation.value, &v)) {
    *error = "@Timeout takes a positive number of seconds, got '" +
             annotation.value + "'";
    return false;
  }
  op->timeout_seconds = v;
  return true;
}

}  // namespace gs
