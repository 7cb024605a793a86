// @Binary in the IDL: what the annotation says, and each mistake refused
// with the line and what to write.
#include "stubgen/idl_binary.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "stubgen/idl_parser.h"

namespace gs {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

StatusOr<Interface> Parse(const std::string& annotation,
                          const std::string& op) {
  return ParseIdl("interface t {\n  " + annotation + "\n  " + op + ";\n};\n",
                  "t.idl");
}

TEST(IdlBinaryTest, KeysInEitherSpelling) {
  auto iface = Parse(
      "@Binary(binary=\"sort\", args=\"-k {key},{key} -t ' ' "
      "--label=\\\"a b\\\" x\\\\ y\", stdin=input, stdout=sorted, "
      "Success=\"0, 2\");",
      "void sort_by(in File input, in int key, out File sorted)");
  ASSERT_TRUE(iface.ok()) << iface.status().message();
  const Operation& op = iface->operations[0];
  ASSERT_TRUE(op.binary.has_value());
  EXPECT_EQ(op.binary->program, "sort");
  EXPECT_TRUE(op.binary->has_args);
  EXPECT_THAT(op.binary->args, ElementsAre("-k", "{key},{key}", "-t", " ",
                                           "--label=a b", "x y"));
  EXPECT_EQ(op.binary->stdin_param, "input");
  EXPECT_EQ(op.binary->stdout_param, "sorted");
  EXPECT_THAT(op.binary->success, ElementsAre(0, 2));

  auto plain = Parse("@Binary(binary = /bin/cp, fail_by_exit_value = false)",
                     "void copy(in File a, out File b)");
  ASSERT_TRUE(plain.ok()) << plain.status().message();
  EXPECT_EQ(plain->operations[0].binary->program, "/bin/cp");
  EXPECT_FALSE(plain->operations[0].binary->has_args);
  EXPECT_TRUE(plain->operations[0].binary->success.empty());
}

TEST(IdlBinaryTest, PlaceholdersAreNamesInBraces) {
  EXPECT_THAT(PlaceholdersOf("{a}-{b_2}{}{ x}{"), ElementsAre("a", "b_2"));
}

TEST(IdlBinaryTest, MistakesNameTheLineAndWhatToWrite) {
  struct Case {
    std::string annotation, op, error;
  };
  const Case cases[] = {
      {"@Binary(args=\"x\")", "void f(in File a)", "needs binary=\"PROGRAM\""},
      {"@Binary(binary=\"x\", workdir=\"/tmp\")", "void f(in File a)",
       "unknown @Binary key 'workdir'; gsrt takes binary, args"},
      {"@Binary(binary=\"x\", workingDir=\"/tmp\")", "void f(in File a)",
       "workingDir is not supported"},
      {"@Binary(binary=\"x\", success=\"0,300\")", "void f(in File a)",
       "success= lists exit statuses 0..255"},
      {"@Binary(binary=\"x\", args=\"'open\")", "void f(in File a)",
       "unclosed ' in"},
      {"@Binary(binary=\"x\", stdin=b)", "void f(in File a, out File b)",
       "stdin=b must be an 'in File', it is 'out File'"},
      {"@Binary(binary=\"x\", stdout=a)", "void f(in File a, out File b)",
       "stdout=a must be an 'out File'"},
      {"@Binary(binary=\"x\", stderr=z)", "void f(in File a)",
       "stderr=z is not a parameter of 'f'"},
      {"@Binary(binary=\"x\", stdout=b, stderr=b)",
       "void f(in File a, out File b)", "name the same file 'b'"},
      {"@Binary(binary=\"x\", args=\"{a} {nope}\")", "void f(in File a)",
       "args: {nope} is not a parameter of 'f'"},
      {"@Binary(binary=\"x\")", "int f(in File a)",
       "a program returns no value; declare it void"},
      {"@Binary(binary=\"x\")", "void f(out int n)",
       "parameter 'n' is out; a program gives nothing back but files"},
      {"@Binary(binary=\"x\")", "void f(in int[4] v)",
       "parameter 'v' is an array"},
      {"@MPI(binary=\"x\", processes=4)", "void f(in File a)",
       "@MPI is not supported yet"},
  };
  for (const Case& c : cases) {
    auto iface = Parse(c.annotation, c.op);
    ASSERT_FALSE(iface.ok()) << c.annotation << " " << c.op;
    EXPECT_THAT(iface.status().message(), HasSubstr("t.idl:2:"))
        << c.annotation;
    EXPECT_THAT(iface.status().message(), HasSubstr(c.error)) << c.annotation;
  }
}

TEST(IdlBinaryTest, OnlyOneBinaryPerOperation) {
  auto iface = ParseIdl(
      "interface t {\n  @Binary(binary=\"a\")\n  @Binary(binary=\"b\")\n"
      "  void f(in File a);\n};\n",
      "t.idl");
  ASSERT_FALSE(iface.ok());
  EXPECT_THAT(iface.status().message(),
              HasSubstr("t.idl:3:3: error: more than one @Binary"));
}

}  // namespace
}  // namespace gs
