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
bool SplitItems(const std::string& text, std::vector<Item>* items,
                std::string* error) {
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
      *error =
          "@Binary takes key=value items, e.g. @Binary(binary=\"gzip\"), "
          "got '" +
          text + "'";
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
        *error = "@Binary value of '" + item.key + "' has no closing quote";
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
      *error = "@Binary: expected ',' after the value of '" +
               items->back().key + "'";
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

bool ParseBinaryAnnotation(const std::string& text, BinarySpec* spec,
                           std::string* error) {
  std::vector<Item> items;
  if (!SplitItems(text, &items, error)) return false;
  for (const Item& item : items) {
    const std::string key = NormalizeAnnotationKey(item.key);
    if (key == "binary") {
      if (item.value.empty()) {
        *error = "@Binary binary= names the program, got an empty value";
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
        *error =
            "@Binary success= lists exit statuses 0..255, e.g. "
            "success=\"0,1\", got '" +
            item.value + "'";
        return false;
      }
    } else if (key == "failbyexitvalue") {
      const std::string v = NormalizeAnnotationKey(item.value);
      if (v == "false") {
        spec->success.clear();
      } else if (v != "true") {
        *error = "@Binary failByExitValue is true or false, got '" +
                 item.value + "'";
        return false;
      }
    } else if (key == "workingdir") {
      *error =
          "@Binary workingDir is not supported: the program runs in "
          "its job's directory, where its files are; remove it";
      return false;
    } else {
      *error = "unknown @Binary key '" + item.key +
               "'; gsrt takes binary, args, stdin, stdout, stderr, success "
               "and failByExitValue";
      return false;
    }
  }
  if (spec->program.empty()) {
    *error = "@Binary needs binary=\"PROGRAM\"";
    return false;
  }
  return true;
}

bool CheckBinary(const Operation& op, std::string* error) {
  const BinarySpec& b = *op.binary;
  const std::string at = "@Binary on '" + op.name + "': ";
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
