#include "stubgen/idl_lexer.h"

#include <cstdio>

namespace gs {

namespace {

bool IsIdentStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

bool IsIdentChar(char c) { return IsIdentStart(c) || (c >= '0' && c <= '9'); }

bool IsBlank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

std::string Quote(char c) {
  if (c >= 0x20 && c < 0x7f) return std::string("'") + c + "'";
  char buf[16];
  std::snprintf(buf, sizeof buf, "'\\x%02x'", static_cast<unsigned char>(c));
  return buf;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (IsBlank(s.front()) || s.front() == '\n')) {
    s.remove_prefix(1);
  }
  while (!s.empty() && (IsBlank(s.back()) || s.back() == '\n')) {
    s.remove_suffix(1);
  }
  return s;
}

class Lexer {
 public:
  explicit Lexer(std::string_view source) : src_(source) {}

  bool Run(std::vector<Token>* tokens, SourceError* error) {
    tokens->clear();
    while (true) {
      SkipBlankAndComments();
      if (failed_) break;
      if (i_ >= src_.size()) break;
      if (at_line_start_ && (src_[i_] == '#' || src_[i_] == '@')) {
        if (src_[i_] == '#') {
          SkipLine();
        } else {
          LexAnnotationLine(tokens);
          if (failed_) break;
        }
        continue;
      }
      at_line_start_ = false;
      Token token;
      token.pos = Pos();
      char c = src_[i_];
      if (IsIdentStart(c)) {
        size_t start = i_;
        while (i_ < src_.size() && IsIdentChar(src_[i_])) Advance();
        token.kind = TokenKind::kIdentifier;
        token.text = src_.substr(start, i_ - start);
      } else if (c >= '0' && c <= '9') {
        size_t start = i_;
        while (i_ < src_.size() && IsIdentChar(src_[i_])) Advance();
        token.kind = TokenKind::kNumber;
        token.text = src_.substr(start, i_ - start);
      } else if (!LexPunct(c, &token)) {
        Fail(token.pos, "unexpected character " + Quote(c));
        break;
      }
      token.end = Pos();
      tokens->push_back(std::move(token));
    }
    if (failed_) {
      *error = error_;
      return false;
    }
    Token end;
    end.kind = TokenKind::kEnd;
    end.pos = end.end = Pos();
    tokens->push_back(end);
    return true;
  }

 private:
  SourcePos Pos() const { return {line_, col_}; }

  void Advance() {
    if (src_[i_] == '\n') {
      ++line_;
      col_ = 1;
      at_line_start_ = true;
    } else {
      ++col_;
    }
    ++i_;
  }

  void Fail(SourcePos pos, std::string message) {
    if (failed_) return;
    failed_ = true;
    error_ = {pos, std::move(message)};
  }

  bool LexPunct(char c, Token* token) {
    switch (c) {
      case '{':
        token->kind = TokenKind::kLBrace;
        break;
      case '}':
        token->kind = TokenKind::kRBrace;
        break;
      case '(':
        token->kind = TokenKind::kLParen;
        break;
      case ')':
        token->kind = TokenKind::kRParen;
        break;
      case ',':
        token->kind = TokenKind::kComma;
        break;
      case ';':
        token->kind = TokenKind::kSemicolon;
        break;
      case '[':
        token->kind = TokenKind::kLBracket;
        break;
      case ']':
        token->kind = TokenKind::kRBracket;
        break;
      default:
        return false;
    }
    token->text = std::string(1, c);
    Advance();
    return true;
  }

  void SkipLine() {
    while (i_ < src_.size() && src_[i_] != '\n') Advance();
  }

  // Blank space and comments; a comment does not end "line start" status
  // only when it is a whole-line `//` comment (it reaches the newline).
  void SkipBlankAndComments() {
    while (i_ < src_.size()) {
      char c = src_[i_];
      if (IsBlank(c) || c == '\n') {
        Advance();
      } else if (c == '/' && Peek(1) == '/') {
        SkipLine();
      } else if (c == '/' && Peek(1) == '*') {
        SourcePos start = Pos();
        at_line_start_ = false;
        Advance();
        Advance();
        while (i_ < src_.size() && !(src_[i_] == '*' && Peek(1) == '/')) {
          Advance();
        }
        if (i_ >= src_.size()) {
          Fail(start, "unterminated /* comment");
          return;
        }
        Advance();
        Advance();
        at_line_start_ = false;
      } else {
        return;
      }
    }
  }

  char Peek(size_t ahead) const {
    return i_ + ahead < src_.size() ? src_[i_ + ahead] : '\0';
  }

  // `@Name(raw text)` on one line, with or without COMPSs's trailing ';'.
  // Only Constraints, Timeout, Implements, Binary and MPI are kept; other
  // annotation lines are skipped like '#' lines. Inside quotes a backslash
  // keeps the next character (\" in a @Binary argument).
  void LexAnnotationLine(std::vector<Token>* tokens) {
    Token token;
    token.kind = TokenKind::kAnnotation;
    token.pos = Pos();
    Advance();  // '@'
    size_t name_start = i_;
    while (i_ < src_.size() && IsIdentChar(src_[i_])) Advance();
    std::string name(src_.substr(name_start, i_ - name_start));
    if (name != "Constraints" && name != "Timeout" && name != "Implements" &&
        name != "Binary" && name != "MPI") {
      SkipLine();
      return;
    }
    token.text = name;
    while (i_ < src_.size() && IsBlank(src_[i_])) Advance();
    if (i_ >= src_.size() || src_[i_] != '(') {
      Fail(Pos(), "expected '(' after @" + name);
      return;
    }
    SourcePos open = Pos();
    Advance();
    size_t value_start = i_;
    int depth = 1;
    bool in_quotes = false;
    while (i_ < src_.size() && src_[i_] != '\n') {
      char c = src_[i_];
      if (in_quotes && c == '\\' && Peek(1) != '\n' && Peek(1) != '\0') {
        Advance();
      } else if (c == '"') {
        in_quotes = !in_quotes;
      } else if (!in_quotes && c == '(') {
        ++depth;
      } else if (!in_quotes && c == ')' && --depth == 0) {
        break;
      }
      Advance();
    }
    if (depth != 0) {
      Fail(open, "unterminated @" + name +
                     "(...): ')' must close it on the "
                     "same line");
      return;
    }
    token.value = Trim(src_.substr(value_start, i_ - value_start));
    Advance();  // ')'
    token.end = Pos();
    while (i_ < src_.size() && IsBlank(src_[i_])) Advance();
    // COMPSs's C binding ends annotation lines with ';'.
    if (i_ < src_.size() && src_[i_] == ';') {
      Advance();
      while (i_ < src_.size() && IsBlank(src_[i_])) Advance();
    }
    if (i_ < src_.size() && src_[i_] == '/' && Peek(1) == '/') SkipLine();
    if (i_ < src_.size() && src_[i_] != '\n') {
      Fail(Pos(), "unexpected text after @" + name + "(...)");
      return;
    }
    tokens->push_back(std::move(token));
  }

  std::string_view src_;
  size_t i_ = 0;
  int line_ = 1;
  int col_ = 1;
  bool at_line_start_ = true;
  bool failed_ = false;
  SourceError error_;
};

}  // namespace

std::string Describe(const Token& token) {
  switch (token.kind) {
    case TokenKind::kEnd:
      return "end of file";
    case TokenKind::kAnnotation:
      return "'@" + token.text + "'";
    default:
      return "'" + token.text + "'";
  }
}

bool Tokenize(std::string_view source, std::vector<Token>* tokens,
              SourceError* error) {
  return Lexer(source).Run(tokens, error);
}

}  // namespace gs
