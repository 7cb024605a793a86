// Splits IDL text into tokens with their line and column. Comments, blank
// space and lines starting with '#' or '@' disappear, except that
// `@Constraints(...)`, `@Timeout(...)` and `@Implements(...)` lines become
// annotation tokens.
#ifndef GSRT_STUBGEN_IDL_LEXER_H_
#define GSRT_STUBGEN_IDL_LEXER_H_

#include <string>
#include <string_view>
#include <vector>

namespace gs {

// A place in the source: 1-based line and column (columns count bytes).
struct SourcePos {
  int line = 1;
  int col = 1;
};

// What is wrong with the source, and where.
struct SourceError {
  SourcePos pos;
  std::string message;
};

enum class TokenKind {
  kIdentifier,  // names, keywords and type names alike
  kLBrace,
  kRBrace,
  kLParen,
  kRParen,
  kComma,
  kSemicolon,
  kLBracket,  // '[' and ']' of an array type: `int[8]`
  kRBracket,
  kNumber,      // a decimal number (an array length)
  kAnnotation,  // `text` is "Constraints", "Timeout" or "Implements",
                // `value` the raw text between the parentheses, trimmed
  kEnd,
};

struct Token {
  TokenKind kind = TokenKind::kEnd;
  std::string text;
  std::string value;
  SourcePos pos;  // first character
  SourcePos end;  // just after the last character
};

// How a token is named in messages: 'name', '{', '@Constraints', end of file.
std::string Describe(const Token& token);

// Tokenizes `source`; the last token is always kEnd. False with `*error`
// set when the text cannot be tokenized (unterminated comment, stray
// character, malformed annotation).
bool Tokenize(std::string_view source, std::vector<Token>* tokens,
              SourceError* error);

}  // namespace gs

#endif  // GSRT_STUBGEN_IDL_LEXER_H_
