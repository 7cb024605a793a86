#include "stubgen/idl_lexer.h"

#include <gtest/gtest.h>

namespace gs {
namespace {

std::vector<Token> Lex(std::string_view text) {
  std::vector<Token> tokens;
  SourceError error;
  EXPECT_TRUE(Tokenize(text, &tokens, &error)) << error.message;
  return tokens;
}

SourceError LexError(std::string_view text) {
  std::vector<Token> tokens;
  SourceError error;
  EXPECT_FALSE(Tokenize(text, &tokens, &error));
  return error;
}

TEST(IdlLexerTest, TokensCarryLineAndColumn) {
  std::vector<Token> t = Lex("interface x {\n  void f(in int a);\n};\n");
  ASSERT_EQ(t.size(), 14u);
  EXPECT_EQ(t[0].kind, TokenKind::kIdentifier);
  EXPECT_EQ(t[0].text, "interface");
  EXPECT_EQ(t[0].pos.line, 1);
  EXPECT_EQ(t[0].pos.col, 1);
  EXPECT_EQ(t[0].end.col, 10);
  EXPECT_EQ(t[2].kind, TokenKind::kLBrace);
  EXPECT_EQ(t[3].text, "void");
  EXPECT_EQ(t[3].pos.line, 2);
  EXPECT_EQ(t[3].pos.col, 3);
  EXPECT_EQ(t[5].kind, TokenKind::kLParen);
  EXPECT_EQ(t[9].kind, TokenKind::kRParen);
  EXPECT_EQ(t[10].kind, TokenKind::kSemicolon);
  EXPECT_EQ(t[13].kind, TokenKind::kEnd);
  EXPECT_EQ(t[13].pos.line, 4);
  EXPECT_EQ(t[13].pos.col, 1);
}

TEST(IdlLexerTest, CommentsAndHashAndOtherAnnotationLinesVanish) {
  std::vector<Token> t =
      Lex("// line comment\n"
          "/* block\n comment */ a /* inline */ b // tail\n"
          "# pragma-like line { ( ;\n"
          "  #indented hash line\n"
          "@Deprecated(whatever\n"
          "c\n");
  ASSERT_EQ(t.size(), 4u);
  EXPECT_EQ(t[0].text, "a");
  EXPECT_EQ(t[0].pos.line, 3);
  EXPECT_EQ(t[0].pos.col, 13);
  EXPECT_EQ(t[1].text, "b");
  EXPECT_EQ(t[2].text, "c");
  EXPECT_EQ(t[2].pos.line, 7);
}

TEST(IdlLexerTest, ConstraintsAndTimeoutKeepTheirRawText) {
  std::vector<Token> t =
      Lex("  @Constraints( cpu=(2), arch=\"x)86\" )  // note\n"
          "@Timeout (30)\n");
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t[0].kind, TokenKind::kAnnotation);
  EXPECT_EQ(t[0].text, "Constraints");
  EXPECT_EQ(t[0].value, "cpu=(2), arch=\"x)86\"");
  EXPECT_EQ(t[0].pos.line, 1);
  EXPECT_EQ(t[0].pos.col, 3);
  EXPECT_EQ(t[1].text, "Timeout");
  EXPECT_EQ(t[1].value, "30");
  EXPECT_EQ(Describe(t[0]), "'@Constraints'");
  EXPECT_EQ(Describe(t[2]), "end of file");
}

// COMPSs's C binding ends every annotation line with ';'.
TEST(IdlLexerTest, EveryKeptAnnotationTakesTheTrailingSemicolon) {
  std::vector<Token> t =
      Lex("@Constraints(ComputingUnits=2);\n"
          "@Timeout(30) ;  // note\n"
          "@Implements(f);\n"
          "@Author(x);\n"
          "g\n");
  ASSERT_EQ(t.size(), 5u);
  EXPECT_EQ(t[0].text, "Constraints");
  EXPECT_EQ(t[1].text, "Timeout");
  EXPECT_EQ(t[1].value, "30");
  EXPECT_EQ(t[2].kind, TokenKind::kAnnotation);
  EXPECT_EQ(t[2].text, "Implements");
  EXPECT_EQ(t[2].value, "f");
  EXPECT_EQ(t[3].kind, TokenKind::kIdentifier);
  EXPECT_EQ(t[3].text, "g");
}

TEST(IdlLexerTest, CrLfLineEndingsCountAsOneLine) {
  std::vector<Token> t = Lex("a\r\nb\r\n");
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t[1].pos.line, 2);
  EXPECT_EQ(t[1].pos.col, 1);
}

TEST(IdlLexerTest, Errors) {
  SourceError e = LexError("a\n  /* never closed\n");
  EXPECT_EQ(e.pos.line, 2);
  EXPECT_EQ(e.pos.col, 3);
  EXPECT_EQ(e.message, "unterminated /* comment");

  e = LexError("a = b");
  EXPECT_EQ(e.pos.col, 3);
  EXPECT_EQ(e.message, "unexpected character '='");

  e = LexError("a \x01");
  EXPECT_EQ(e.message, "unexpected character '\\x01'");

  e = LexError("a # not at line start");
  EXPECT_EQ(e.message, "unexpected character '#'");

  e = LexError("@Constraints(a=(1)\n");
  EXPECT_EQ(e.pos.col, 13);
  EXPECT_EQ(e.message,
            "unterminated @Constraints(...): ')' must close it on the same "
            "line");

  e = LexError("@Timeout 30\n");
  EXPECT_EQ(e.pos.col, 10);
  EXPECT_EQ(e.message, "expected '(' after @Timeout");

  e = LexError("@Timeout(30) void\n");
  EXPECT_EQ(e.pos.col, 14);
  EXPECT_EQ(e.message, "unexpected text after @Timeout(...)");
}

}  // namespace
}  // namespace gs
