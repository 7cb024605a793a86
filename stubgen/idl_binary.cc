#include "stubgen/idl_binary.h"

#include <cctype>
#include <cstdlib>
#include <string_view>

#include "stubgen/idl_annotations.h"

namespace gs {
namespace {

bool IsSpaceOrTab(char c) { return c == ' ' || c == '\t'; }

bool IsNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

struct Item {
  std::string key;
  std::string value;
};

// `key = "va\"lue", key = bare` into items; quotes removed, a backslash
// inside them keeps the next character.
bool SplitItems(const std::string& text, const std::string& at,
                std::vector<Item>* items, std::string* error) {
  size_t i = 0;
  const size_t n = text.size();
  auto skip_blanks = [&] {
    while (i < n && IsSpaceOrTab(text[i])) ++i;
  };
  while (true) {
    skip_blanks();
    size_t key_start = i;
    while (i < n && IsNameChar(text[i])) ++i;
    Item item;
    item.key = text.substr(key_start, i - key_start);
    skip_blanks();
    if (item.key.empty() || i >= n || text[i] != '=') {
      *error = at + " takes key=value items, e.g. " + at +
               "(binary=\"gzip\"), got '" + text + "'";
      return false;
    }
    ++i;
    skip_blanks();
    if (i < n && text[i] == '"') {
      ++i;
      bool closed = false;
      while (i < n) {
        char c = text[i++];
        if (c == '\\' && i < n) {
          item.value += text[i++];
        } else if (c == '"') {
          closed = true;
          break;
        } else {
          item.value += c;
        }
      }
      if (!closed) {
        *error = at + " value of '" + item.key + "' has no closing quote";
        return false;
      }
      skip_blanks();
    } else {
      size_t start = i;
      while (i < n && text[i] != ',') ++i;
      size_t end = i;
      while (end > start && IsSpaceOrTab(text[end - 1])) --end;
      item.value = text.substr(start, end - start);
    }
    items->push_back(std::move(item));
    if (i >= n) return true;
    if (text[i] != ',') {
      *error =
          at + ": expected ',' after the value of '" + items->back().key + "'";
      return false;
    }
    ++i;
  }
}

bool ParseCodes(const std::string& value, std::vector<int>* codes) {
  codes->clear();
  std::string cur;
  for (size_t i = 0; i <= value.size(); ++i) {
    char c = i < value.size() ? value[i] : ',';
    if (c == ',' || IsSpaceOrTab(c)) {
      if (cur.empty()) continue;
      char* end = nullptr;
      long code = std::strtol(cur.c_str(), &end, 10);
      if (*end != '\0' || code < 0 || code > 255) return false;
      codes->push_back(static_cast<int>(code));
      cur.clear();
    } else {
      cur += c;
    }
  }
  return !codes->empty();
}

const Param* FindParam(const Operation& op, const std::string& name) {
  for (const Param& p : op.params) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

}  // namespace

bool SplitArgsTemplate(const std::string& text, std::vector<std::string>* words,
                       std::string* error) {
  words->clear();
  std::string cur;
  bool in_word = false;
  char quote = 0;
  bool escaped = false;
  for (char c : text) {
    if (escaped) {
      cur += c;
      in_word = true;
      escaped = false;
    } else if (c == '\\' && quote != '\'') {
      escaped = true;
    } else if (quote) {
      if (c == quote) {
        quote = 0;
      } else {
        cur += c;
      }
    } else if (c == '\'' || c == '"') {
      quote = c;
      in_word = true;
    } else if (IsSpaceOrTab(c)) {
      if (in_word) words->push_back(cur);
      cur.clear();
      in_word = false;
    } else {
      cur += c;
      in_word = true;
    }
  }
  if (quote) {
    *error =
        std::string("@Binary args: unclosed ") + quote + " in '" + text + "'";
    return false;
  }
  if (in_word) words->push_back(cur);
  return true;
}

std::vector<std::string> PlaceholdersOf(const std::string& word) {
  std::vector<std::string> names;
  for (size_t open = word.find('{'); open != std::string::npos;
       open = word.find('{', open + 1)) {
    size_t close = open + 1;
    while (close < word.size() && IsNameChar(word[close])) ++close;
    if (close < word.size() && word[close] == '}' && close > open + 1) {
      names.push_back(word.substr(open + 1, close - open - 1));
    }
  }
  return names;
}

namespace {

// A positive count of an @MPI key.
bool ParseCount(const Item& item, int* count, std::string* error) {
  char* end = nullptr;
  const long v = std::strtol(item.value.c_str(), &end, 10);
  if (item.value.empty() || *end != '\0' || v < 1 || v > 1000000) {
    *error = "@MPI " + item.key +
             " is a whole number of processes, 1 or "
             "more, e.g. " +
             item.key + "=4, got '" + item.value + "'";
    return false;
  }
  *count = static_cast<int>(v);
  return true;
}

}  // namespace

bool ParseBinaryAnnotation(const std::string& text, BinarySpec* spec,
                           std::string* error, bool mpi) {
  const std::string at = mpi ? "@MPI" : "@Binary";
  if (mpi) spec->mpi.emplace();
  std::vector<Item> items;
  if (!SplitItems(text, at, &items, error)) return false;
  for (const Item& item : items) {
    const std::string key = NormalizeAnnotationKey(item.key);
    if (mpi && key == "runner") {
      if (item.value.empty() || item.value.find('/') != std::string::npos) {
        *error =
            "@MPI runner is the program that starts the ranks: mpirun "
            "(Open MPI), srun (Slurm) or mpiexec, found in PATH; got '" +
            item.value + "'";
        return false;
      }
      spec->mpi->runner = item.value;
    } else if (mpi && key == "processes") {
      if (!ParseCount(item, &spec->mpi->processes, error)) return false;
    } else if (mpi && key == "processespernode") {
      if (!ParseCount(item, &spec->mpi->per_node, error)) return false;
    } else if (mpi && key == "computingnodes") {
      *error =
          "@MPI computingNodes (COMPSs's older spelling) is not taken: give "
          "processes=N and processesPerNode=P (N/P nodes)";
      return false;
    } else if (key == "binary") {
      if (item.value.empty()) {
        *error = at + " binary= names the program, got an empty value";
        return false;
      }
      spec->program = item.value;
    } else if (key == "args") {
      spec->has_args = true;
      if (!SplitArgsTemplate(item.value, &spec->args, error)) return false;
    } else if (key == "stdin" || key == "stdout" || key == "stderr") {
      std::string& slot = key == "stdin"    ? spec->stdin_param
                          : key == "stdout" ? spec->stdout_param
                                            : spec->stderr_param;
      slot = item.value;
    } else if (key == "success") {
      if (!ParseCodes(item.value, &spec->success)) {
        *error = at +
                 " success= lists exit statuses 0..255, e.g. "
                 "success=\"0,1\", got '" +
                 item.value + "'";
        return false;
      }
    } else if (key == "failbyexitvalue") {
      const std::string v = NormalizeAnnotationKey(item.value);
      if (v == "false") {
        spec->success.clear();
      } else if (v != "true") {
        *error =
            at + " failByExitValue is true or false, got '" + item.value + "'";
        return false;
      }
    } else if (key == "workingdir") {
      *error = at +
               " workingDir is not supported: the program runs in "
               "its job's directory, where its files are; remove it";
      return false;
    } else {
      *error = "unknown " + at + " key '" + item.key + "'; gsrt takes " +
               (mpi ? "runner, processes, processesPerNode, " : "") +
               "binary, args, stdin, stdout, stderr, success and "
               "failByExitValue";
      return false;
    }
  }
  if (spec->program.empty()) {
    *error = at + " needs binary=\"PROGRAM\"";
    return false;
  }
  if (mpi && spec->mpi->per_node > spec->mpi->processes) {
    *error = "@MPI processesPerNode=" + std::to_string(spec->mpi->per_node) +
             " is more than processes=" + std::to_string(spec->mpi->processes) +
             "; a job of N processes has at most N on a node";
    return false;
  }
  return true;
}

bool ApplyMpiShape(Operation* op, std::string* error) {
  if (!op->binary || !op->binary->mpi) return true;
  const MpiSpec& mpi = *op->binary->mpi;
  if (op->computing_units > 0) {
    *error = "@MPI on '" + op->name +
             "': its processes are its cores; remove ComputingUnits from "
             "@Constraints (processesPerNode sets the cores on each node)";
    return false;
  }
  const int per_node = mpi.per_node > 0 ? mpi.per_node : mpi.processes;
  const int nodes = (mpi.processes + per_node - 1) / per_node;
  op->computing_units = per_node;
  op->nodes = nodes;
  return true;
}

bool CheckBinary(const Operation& op, std::string* error) {
  const BinarySpec& b = *op.binary;
  const std::string at =
      std::string(b.mpi ? "@MPI" : "@Binary") + " on '" + op.name + "': ";
  if (op.return_type != GS_TYPE_VOID) {
    *error = at +
             "a program returns no value; declare it void (its exit "
             "status decides whether it failed)";
    return false;
  }
  for (const Param& p : op.params) {
    if (p.IsArray()) {
      *error = at + "parameter '" + p.name +
               "' is an array; a program takes File and scalar parameters";
      return false;
    }
    if (p.type != GS_TYPE_FILE && p.dir != GS_DIR_IN) {
      *error = at + "parameter '" + p.name + "' is " + IdlDirName(p.dir) +
               "; a program gives nothing back but files: make it 'in', or "
               "an out File";
      return false;
    }
  }
  struct Stream {
    const char* key;
    const std::string& name;
    bool input;
  };
  for (const Stream& s : {Stream{"stdin", b.stdin_param, true},
                          Stream{"stdout", b.stdout_param, false},
                          Stream{"stderr", b.stderr_param, false}}) {
    if (s.name.empty()) continue;
    const Param* p = FindParam(op, s.name);
    if (p == nullptr) {
      *error = at + s.key + "=" + s.name + " is not a parameter of '" +
               op.name + "'";
      return false;
    }
    bool ok = p->type == GS_TYPE_FILE &&
              (s.input ? p->dir == GS_DIR_IN : p->dir != GS_DIR_IN);
    if (!ok) {
      *error =
          at + s.key + "=" + s.name + " must be " +
          (s.input ? "an 'in File'" : "an 'out File' (or inout, appended to)") +
          ", it is '" + IdlDirName(p->dir) + " " + IdlTypeName(p->type) + "'";
      return false;
    }
  }
  if (!b.stdout_param.empty() && b.stdout_param == b.stderr_param) {
    *error = at + "stdout and stderr name the same file '" + b.stdout_param +
             "'; give each its own";
    return false;
  }
  for (const std::string& word : b.args) {
    for (const std::string& name : PlaceholdersOf(word)) {
      if (FindParam(op, name) == nullptr) {
        *error =
            at + "args: {" + name + "} is not a parameter of '" + op.name + "'";
        return false;
      }
    }
  }
  return true;
}

}  // namespace gs
