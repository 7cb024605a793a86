#include "stubgen/idl_parser.h"

#include <map>

#include "runtime/base/array_codec.h"
#include "stubgen/idl_annotations.h"
#include "stubgen/idl_binary.h"
#include "stubgen/idl_names.h"
#include "stubgen/library_names.h"

namespace gs {

namespace {

constexpr const char kParamTypes[] =
    "File, string, char, boolean, short, int, long, float or double";
constexpr const char kReturnTypes[] =
    "void, string, char, boolean, short, int, long, float or double";

// Same return type and parameters (types, directions, array lengths);
// names may differ.
bool SameSignature(const Operation& a, const Operation& b) {
  if (a.return_type != b.return_type ||
      a.return_array_length != b.return_array_length ||
      a.params.size() != b.params.size()) {
    return false;
  }
  auto index_of = [](const Operation& op, const std::string& name) {
    for (size_t k = 0; k < op.params.size(); ++k) {
      if (op.params[k].name == name) return static_cast<int>(k);
    }
    return -1;
  };
  for (size_t k = 0; k < a.params.size(); ++k) {
    const Param& p = a.params[k];
    const Param& q = b.params[k];
    if (p.dir != q.dir || p.type != q.type ||
        p.array_length != q.array_length ||
        index_of(a, p.length_param) != index_of(b, q.length_param)) {
      return false;
    }
  }
  return true;
}

class Parser {
 public:
  explicit Parser(const std::vector<Token>& tokens) : tokens_(tokens) {}

  bool Run(Interface* out, SourceError* error) {
    if (!ParseInterface(out)) {
      *error = error_;
      return false;
    }
    return true;
  }

 private:
  const Token& Cur() const { return tokens_[i_]; }
  const Token& Prev() const { return tokens_[i_ > 0 ? i_ - 1 : 0]; }
  void Next() {
    if (Cur().kind != TokenKind::kEnd) ++i_;
  }
  bool At(TokenKind kind) const { return Cur().kind == kind; }
  bool AtWord(std::string_view word) const {
    return At(TokenKind::kIdentifier) && Cur().text == word;
  }

  bool Fail(SourcePos pos, std::string message) {
    error_ = {pos, std::move(message)};
    return false;
  }

  // A missing ';' is reported just after the token it should follow, as
  // compilers do, not at the start of whatever comes next.
  bool ExpectSemicolon(const std::string& after) {
    if (!At(TokenKind::kSemicolon)) {
      return Fail(Prev().end,
                  "expected ';' after " + after + ", got " + Describe(Cur()));
    }
    Next();
    return true;
  }

  bool ExpectName(const std::string& what, std::string* name) {
    if (!At(TokenKind::kIdentifier)) {
      return Fail(Cur().pos, "expected " + what + ", got " + Describe(Cur()));
    }
    std::string article = what.find_first_of("aeiou") == 0 ? "an " : "a ";
    std::string why = CheckName(Cur().text, article + what);
    if (!why.empty()) return Fail(Cur().pos, why);
    *name = Cur().text;
    Next();
    return true;
  }

  bool ParseInterface(Interface* iface) {
    if (At(TokenKind::kAnnotation)) {
      return Fail(Cur().pos,
                  "@" + Cur().text + " must come right before an operation");
    }
    if (!AtWord("interface")) {
      return Fail(Cur().pos, "expected 'interface', got " + Describe(Cur()));
    }
    Next();
    SourcePos name_pos = Cur().pos;
    if (!ExpectName("interface name", &iface->name)) return false;
    if (!At(TokenKind::kLBrace)) {
      return Fail(Cur().pos, "expected '{' after interface name '" +
                                 iface->name + "', got " + Describe(Cur()));
    }
    Next();
    std::map<std::string, int> first_line;
    while (true) {
      Operation op;
      const Token* first_annotation = nullptr;
      SourcePos implements_pos = Cur().pos;
      SourcePos binary_pos = Cur().pos;
      while (At(TokenKind::kAnnotation)) {
        if (!first_annotation) first_annotation = &Cur();
        if (Cur().text == "Implements") implements_pos = Cur().pos;
        const bool program = Cur().text == "Binary" || Cur().text == "MPI";
        if (program) binary_pos = Cur().pos;
        std::string& slot = Cur().text == "Constraints" ? op.constraints
                            : Cur().text == "Timeout"   ? op.timeout
                            : program                   ? op.binary_text
                                                        : op.implements;
        if (!slot.empty()) {
          return Fail(Cur().pos,
                      program ? "more than one @Binary or @MPI for the same "
                                "operation; keep one"
                              : "more than one @" + Cur().text +
                                    " for the same operation");
        }
        slot = Cur().value;
        std::string why;
        if (!ApplyAnnotation(Cur(), &op, &why)) return Fail(Cur().pos, why);
        Next();
      }
      if (At(TokenKind::kRBrace) || At(TokenKind::kEnd)) {
        if (first_annotation) {
          return Fail(first_annotation->pos,
                      "@" + first_annotation->text +
                          " must come right before an operation");
        }
        if (At(TokenKind::kEnd)) {
          return Fail(Cur().pos, "expected '}' at the end of interface '" +
                                     iface->name + "', got end of file");
        }
        break;
      }
      SourcePos name_pos_op;
      if (!ParseOperation(&op, &name_pos_op)) return false;
      if (op.binary) {
        std::string why;
        if (!CheckBinary(op, &why) || !ApplyMpiShape(&op, &why))
          return Fail(binary_pos, why);
      }
      implements_pos_.push_back(implements_pos);
      auto [it, inserted] = first_line.emplace(op.name, op.line);
      if (!inserted) {
        return Fail(name_pos_op, "duplicate operation '" + op.name +
                                     "' (first declared at line " +
                                     std::to_string(it->second) + ")");
      }
      iface->operations.push_back(std::move(op));
    }
    Next();  // '}'
    if (iface->operations.empty()) {
      return Fail(name_pos,
                  "interface '" + iface->name + "' declares no operations");
    }
    if (!CheckImplements(*iface)) return false;
    if (!ExpectSemicolon("'}' of interface '" + iface->name + "'")) {
      return false;
    }
    if (!At(TokenKind::kEnd)) {
      return Fail(Cur().pos, "expected end of file after interface '" +
                                 iface->name + "', got " + Describe(Cur()) +
                                 " (one interface per file)");
    }
    return true;
  }

  bool ParseOperation(Operation* op, SourcePos* name_pos) {
    if (!At(TokenKind::kIdentifier)) {
      return Fail(Cur().pos, "expected an operation (return type), got " +
                                 Describe(Cur()));
    }
    op->line = Cur().pos.line;
    if (AtWord("static")) {  // COMPSs's grammar allows it for class methods
      return Fail(Cur().pos,
                  "'static' (a COMPSs task that is a static class method) is "
                  "not supported: gsrt operations are plain functions; remove "
                  "'static' and implement the operation as a free function "
                  "that calls the method");
    }
    std::optional<gs_type> type = TypeFromIdlName(Cur().text);
    if (!type) {
      return Fail(Cur().pos, "unknown return type '" + Cur().text +
                                 "'; expected " + kReturnTypes);
    }
    if (*type == GS_TYPE_FILE) {
      bool array = tokens_[i_ + 1].kind == TokenKind::kLBracket;
      return Fail(Cur().pos, std::string("File cannot be a return type") +
                                 (array ? ", nor can an array of File" : "") +
                                 "; use an out File parameter" +
                                 (array ? " per file" : ""));
    }
    op->return_type = *type;
    Next();
    if (At(TokenKind::kLBracket) && !ParseReturnArrayLength(op)) return false;
    *name_pos = Cur().pos;
    if (!ExpectName("operation name", &op->name)) return false;
    if (IsLibraryFunction(op->name)) {
      return Fail(*name_pos,
                  "operation name '" + op->name +
                      "' is a C/POSIX library function: the generated "
                      "function of that name would replace the library's in "
                      "the master and the worker (the runtime calls it too); "
                      "rename the operation, e.g. to '" +
                      op->name + "_op'");
    }
    if (!At(TokenKind::kLParen)) {
      return Fail(Cur().pos, "expected '(' after operation name '" + op->name +
                                 "', got " + Describe(Cur()));
    }
    Next();
    length_pos_.clear();
    if (AtWord("void") && tokens_[i_ + 1].kind == TokenKind::kRParen) Next();
    if (At(TokenKind::kRParen)) {
      Next();
    } else {
      while (true) {
        if (!ParseParam(op)) return false;
        if (At(TokenKind::kComma)) {
          Next();
        } else if (At(TokenKind::kRParen)) {
          Next();
          break;
        } else {
          return Fail(Cur().pos, "expected ',' or ')' after parameter '" +
                                     op->params.back().name + "', got " +
                                     Describe(Cur()));
        }
      }
    }
    if (!CheckArrayLengths(*op)) return false;
    return ExpectSemicolon("operation '" + op->name + "'");
  }

  bool ParseParam(Operation* op) {
    Param param;
    std::optional<gs_dir> dir;
    if (At(TokenKind::kIdentifier)) dir = DirFromIdlName(Cur().text);
    if (!dir) {
      if (At(TokenKind::kIdentifier) && TypeFromIdlName(Cur().text)) {
        return Fail(Cur().pos, "missing direction before '" + Cur().text +
                                   "'; expected in, out or inout");
      }
      return Fail(Cur().pos,
                  "expected parameter direction (in, out or inout), got " +
                      Describe(Cur()));
    }
    param.dir = *dir;
    Next();
    if (!At(TokenKind::kIdentifier)) {
      return Fail(Cur().pos, "expected parameter type after '" +
                                 std::string(IdlDirName(param.dir)) +
                                 "', got " + Describe(Cur()));
    }
    std::optional<gs_type> type = TypeFromIdlName(Cur().text);
    if (!type && tokens_[i_ + 1].kind == TokenKind::kIdentifier) {
      // `inout student st`: a typo, or COMPSs's object parameter (a class).
      return Fail(Cur().pos,
                  "unknown type '" + Cur().text + "'; expected " + kParamTypes +
                      ". If '" + Cur().text +
                      "' is a class (a COMPSs object parameter): gsrt passes "
                      "objects only as files; declare it '" +
                      IdlDirName(param.dir) + " File " + tokens_[i_ + 1].text +
                      "' and serialize the object to that file yourself "
                      "(write it before the call, read it in the function)");
    }
    if (!type) {
      return Fail(Cur().pos,
                  "unknown type '" + Cur().text + "'; expected " + kParamTypes);
    }
    if (*type == GS_TYPE_VOID) {
      return Fail(Cur().pos, "void is not a parameter type; expected " +
                                 std::string(kParamTypes));
    }
    param.type = *type;
    Next();
    SourcePos length_pos;
    if (At(TokenKind::kLBracket) && !ParseArrayLength(&param, &length_pos)) {
      return false;
    }
    SourcePos name_pos = Cur().pos;
    if (!ExpectName("parameter name", &param.name)) return false;
    for (const Param& other : op->params) {
      if (other.name == param.name) {
        return Fail(name_pos, "duplicate parameter '" + param.name +
                                  "' in operation '" + op->name + "'");
      }
    }
    op->params.push_back(std::move(param));
    length_pos_.push_back(length_pos);
    return true;
  }

  // A fixed array length: the number token at Cur(), 1 to
  // kMaxArrayElements.
  bool ParseFixedLength(int* length) {
    const std::string& text = Cur().text;
    size_t digits = text.find_first_not_of("0123456789");
    long long n =
        digits == std::string::npos && text.size() <= 9 ? std::stoll(text) : -1;
    if (n < 1 || n > static_cast<long long>(kMaxArrayElements)) {
      return Fail(Cur().pos, "array length must be a number from 1 to " +
                                 std::to_string(kMaxArrayElements) + ", got '" +
                                 text + "'; pass bigger data in a File");
    }
    *length = static_cast<int>(n);
    Next();
    return true;
  }

  bool FailArrayOf(gs_type type) {
    return Fail(Cur().pos,
                std::string("arrays of ") + IdlTypeName(type) +
                    " are not supported; arrays hold char, boolean, short, "
                    "int, long, float or double (pass the values in a File)");
  }

  // `[3]` after a return type (COMPSs's `long[3] f(...)`): the stubs return
  // a malloc'd array of that many elements. Only a fixed length: the
  // caller must know how many elements it got.
  bool ParseReturnArrayLength(Operation* op) {
    if (op->return_type == GS_TYPE_VOID) {
      return Fail(Cur().pos,
                  "void cannot be an array; an array return value holds "
                  "char, boolean, short, int, long, float or double");
    }
    if (!IsScalar(op->return_type)) return FailArrayOf(op->return_type);
    Next();
    const std::string type = IdlTypeName(op->return_type);
    if (At(TokenKind::kIdentifier)) {
      return Fail(Cur().pos,
                  "a returned array needs a fixed length, e.g. '" + type +
                      "[3]'; for a length given by parameter '" + Cur().text +
                      "', declare the operation void and return the array "
                      "through an out parameter: 'out " +
                      type + "[" + Cur().text + "] result'");
    }
    if (!At(TokenKind::kNumber)) {
      return Fail(Cur().pos,
                  "expected the length of the returned array (a number, "
                  "e.g. '" +
                      type + "[3]') after '[', got " + Describe(Cur()));
    }
    if (!ParseFixedLength(&op->return_array_length)) return false;
    if (!At(TokenKind::kRBracket)) {
      return Fail(Cur().pos, "expected ']' after the array length, got " +
                                 Describe(Cur()));
    }
    Next();
    return true;
  }

  // `[8]` or `[n]` after a scalar type (COMPSs's `int[<size>]`).
  bool ParseArrayLength(Param* param, SourcePos* length_pos) {
    if (!IsScalar(param->type)) return FailArrayOf(param->type);
    Next();
    *length_pos = Cur().pos;
    if (At(TokenKind::kNumber)) {
      if (!ParseFixedLength(&param->array_length)) return false;
    } else if (At(TokenKind::kIdentifier)) {
      param->length_param = Cur().text;
      Next();
    } else {
      return Fail(Cur().pos,
                  "expected an array length (a number or the name of an 'in "
                  "int' parameter) after '[', got " +
                      Describe(Cur()));
    }
    if (!At(TokenKind::kRBracket)) {
      return Fail(Cur().pos, "expected ']' after the array length, got " +
                                 Describe(Cur()));
    }
    Next();
    return true;
  }

  // `@Implements(f)` names another operation of the interface, one that is
  // not itself an alternative, with the same parameters and return type.
  bool CheckImplements(const Interface& iface) {
    for (size_t i = 0; i < iface.operations.size(); ++i) {
      const Operation& op = iface.operations[i];
      if (op.implements.empty()) continue;
      const std::string at =
          "@Implements(" + op.implements + ") on '" + op.name + "': ";
      const Operation* target = nullptr;
      for (const Operation& other : iface.operations) {
        if (other.name == op.implements) target = &other;
      }
      if (target == &op) {
        return Fail(implements_pos_[i],
                    at + "an operation cannot implement itself");
      }
      if (target == nullptr) {
        return Fail(
            implements_pos_[i],
            at + "the interface has no operation '" + op.implements + "'");
      }
      if (!target->implements.empty()) {
        return Fail(implements_pos_[i],
                    at + "'" + target->name +
                        "' is itself an alternative of '" + target->implements +
                        "'; write @Implements(" + target->implements + ")");
      }
      if (!SameSignature(op, *target)) {
        return Fail(implements_pos_[i],
                    at +
                        "an alternative takes the parameters and returns the "
                        "type of the operation it implements (" +
                        Signature(*target) + "), got " + Signature(op));
      }
    }
    return true;
  }

  // `int[n] v` needs `in int n` (or short/long) in the same operation,
  // before or after it.
  bool CheckArrayLengths(const Operation& op) {
    for (size_t k = 0; k < op.params.size(); ++k) {
      const Param& p = op.params[k];
      if (p.length_param.empty()) continue;
      const Param* length = nullptr;
      for (const Param& other : op.params) {
        if (other.name == p.length_param) length = &other;
      }
      if (length == nullptr) {
        return Fail(length_pos_[k],
                    "array length '" + p.length_param + "' of parameter '" +
                        p.name + "' is not a parameter of '" + op.name +
                        "'; write a number (int[8]) or the name of an 'in "
                        "int' or 'in long' parameter");
      }
      bool integer = length->type == GS_TYPE_SHORT ||
                     length->type == GS_TYPE_INT ||
                     length->type == GS_TYPE_LONG;
      if (length->dir != GS_DIR_IN || !integer || length->IsArray()) {
        return Fail(length_pos_[k], "array length '" + p.length_param +
                                        "' of parameter '" + p.name +
                                        "' must be an 'in' short, int or long "
                                        "parameter; '" +
                                        length->name + "' is '" +
                                        IdlDirName(length->dir) + " " +
                                        IdlParamTypeName(*length) + "'");
      }
    }
    return true;
  }

  const std::vector<Token>& tokens_;
  size_t i_ = 0;
  // Where each operation's annotations start (for @Implements errors).
  std::vector<SourcePos> implements_pos_;
  // Where each parameter of the current operation wrote its array length.
  std::vector<SourcePos> length_pos_;
  SourceError error_;
};

}  // namespace

bool ParseTokens(const std::vector<Token>& tokens, Interface* out,
                 SourceError* error) {
  return Parser(tokens).Run(out, error);
}

std::string FormatSourceError(std::string_view filename,
                              const SourceError& error) {
  return std::string(filename) + ":" + std::to_string(error.pos.line) + ":" +
         std::to_string(error.pos.col) + ": error: " + error.message;
}

StatusOr<Interface> ParseIdl(std::string_view source,
                             std::string_view filename) {
  std::vector<Token> tokens;
  SourceError error;
  Interface iface;
  if (!Tokenize(source, &tokens, &error) ||
      !ParseTokens(tokens, &iface, &error)) {
    return Status::InvalidArgument(FormatSourceError(filename, error));
  }
  return iface;
}

}  // namespace gs
