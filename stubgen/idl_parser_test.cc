#include "stubgen/idl_parser.h"

#include <gtest/gtest.h>

#include <map>

#include "stubgen/test_support.h"

namespace gs {
namespace {

const std::string kTestdata = GSRT_STUBGEN_TESTDATA;

TEST(IdlParserTest, ParsesOperationsParamsAndAnnotations) {
  StatusOr<Interface> parsed = ParseIdl(
      "# header line\n"
      "interface bank {\n"
      "  @Constraints(ComputingUnits=2)\n"
      "  @Timeout(10)\n"
      "  double deposit(inout File ledger, in string who, in double amount,\n"
      "                 out boolean ok);\n"
      "  void reset(void);\n"
      "  /* c */ int count() ;\n"
      "};\n",
      "bank.idl");
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  const Interface& iface = *parsed;
  EXPECT_EQ(iface.name, "bank");
  ASSERT_EQ(iface.operations.size(), 3u);

  const Operation& deposit = iface.operations[0];
  EXPECT_EQ(deposit.name, "deposit");
  EXPECT_EQ(deposit.return_type, GS_TYPE_DOUBLE);
  EXPECT_EQ(deposit.constraints, "ComputingUnits=2");
  EXPECT_EQ(deposit.timeout, "10");
  EXPECT_EQ(deposit.computing_units, 2);
  EXPECT_EQ(deposit.memory_gb, 0);
  EXPECT_EQ(deposit.timeout_seconds, 10);
  EXPECT_EQ(deposit.line, 5);
  ASSERT_EQ(deposit.params.size(), 4u);
  EXPECT_EQ(deposit.params[0].dir, GS_DIR_INOUT);
  EXPECT_EQ(deposit.params[0].type, GS_TYPE_FILE);
  EXPECT_EQ(deposit.params[0].name, "ledger");
  EXPECT_EQ(deposit.params[1].type, GS_TYPE_STRING);
  EXPECT_EQ(deposit.params[3].dir, GS_DIR_OUT);
  EXPECT_EQ(deposit.params[3].type, GS_TYPE_BOOLEAN);
  EXPECT_EQ(Signature(deposit),
            "double deposit(inout File ledger, in string who, in double "
            "amount, out boolean ok)");

  EXPECT_EQ(iface.operations[1].name, "reset");
  EXPECT_TRUE(iface.operations[1].params.empty());
  EXPECT_TRUE(iface.operations[1].constraints.empty());
  EXPECT_EQ(iface.operations[2].return_type, GS_TYPE_INT);
  EXPECT_EQ(iface.operations[2].line, 8);
}

// GPUs=k, and COMPSs's processorType=GPU whose ComputingUnits are GPUs.
TEST(IdlParserTest, GpuConstraintsInBothSpellings) {
  StatusOr<Interface> parsed = ParseIdl(
      "interface g {\n"
      "  @Constraints(GPUs=2, ComputingUnits=4)\n"
      "  void train(in File data);\n"
      "  @Constraints(processorType=\"GPU\", computingUnits=\"3\")\n"
      "  void infer(in File data);\n"
      "  @Constraints(processorType=GPU)\n"
      "  void one(in File data);\n"
      "  @Constraints(processorType=CPU, ComputingUnits=2)\n"
      "  void cpu(in File data);\n"
      "};\n",
      "g.idl");
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  const auto& ops = parsed->operations;
  EXPECT_EQ(ops[0].gpus, 2);
  EXPECT_EQ(ops[0].computing_units, 4);
  EXPECT_EQ(ops[1].gpus, 3);
  EXPECT_EQ(ops[1].computing_units, 0) << "one core drives them";
  EXPECT_EQ(ops[2].gpus, 1);
  EXPECT_EQ(ops[3].gpus, 0);
  EXPECT_EQ(ops[3].computing_units, 2);
}

TEST(IdlParserTest, AcceptsEveryScalarTypeInEveryDirection) {
  for (const char* type :
       {"char", "boolean", "short", "int", "long", "float", "double"}) {
    std::string t = type;
    StatusOr<Interface> parsed =
        ParseIdl("interface x { " + t + " f(in " + t + " a, out " + t +
                     " b, inout " + t + " c); };",
                 "x.idl");
    ASSERT_TRUE(parsed.ok()) << t << ": " << parsed.status().message();
    EXPECT_EQ(Signature(parsed->operations[0]),
              t + " f(in " + t + " a, out " + t + " b, inout " + t + " c)");
  }
}

struct ErrorCase {
  const char* what;
  const char* idl;
  const char* expected;
};

// Every message the parser and lexer give, with its exact position.
const ErrorCase kErrors[] = {
    {"empty file", "",
     "t.idl:1:1: error: expected 'interface', got end of file"},
    {"no interface keyword", "void f();",
     "t.idl:1:1: error: expected 'interface', got 'void'"},
    {"interface without name", "interface {",
     "t.idl:1:11: error: expected interface name, got '{'"},
    {"keyword as interface name", "interface int {",
     "t.idl:1:11: error: 'int' is an IDL keyword and cannot be used as an "
     "interface name"},
    {"missing brace", "interface a void f();",
     "t.idl:1:13: error: expected '{' after interface name 'a', got 'void'"},
    {"unterminated comment", "interface a {\n  /* oops\n  void f();\n};\n",
     "t.idl:2:3: error: unterminated /* comment"},
    {"missing semicolon after operation", "interface a {\n  void f()\n};\n",
     "t.idl:2:11: error: expected ';' after operation 'f', got '}'"},
    {"missing semicolon before next operation",
     "interface a {\n  void f(in int x)\n  void g();\n};\n",
     "t.idl:2:19: error: expected ';' after operation 'f', got 'void'"},
    {"missing semicolon after interface", "interface a {\n  void f();\n}\n",
     "t.idl:3:2: error: expected ';' after '}' of interface 'a', got end of "
     "file"},
    {"end of file inside interface", "interface a {\n  void f();\n",
     "t.idl:3:1: error: expected '}' at the end of interface 'a', got end of "
     "file"},
    {"two interfaces", "interface a { void f(); };\ninterface b { void g(); };",
     "t.idl:2:1: error: expected end of file after interface 'a', got "
     "'interface' (one interface per file)"},
    {"empty interface", "interface a {\n};\n",
     "t.idl:1:11: error: interface 'a' declares no operations"},
    {"unknown return type", "interface a { integer f(); };",
     "t.idl:1:15: error: unknown return type 'integer'; expected void, "
     "string, char, boolean, short, int, long, float or double"},
    {"File return type", "interface a { File f(); };",
     "t.idl:1:15: error: File cannot be a return type; use an out File "
     "parameter"},
    {"stray token in body", "interface a { ; };",
     "t.idl:1:15: error: expected an operation (return type), got ';'"},
    {"missing operation name", "interface a { void (); };",
     "t.idl:1:20: error: expected operation name, got '('"},
    {"C++ keyword as operation name", "interface a { void delete(); };",
     "t.idl:1:20: error: 'delete' is reserved in C/C++ and cannot be used as "
     "an operation name"},
    {"main as operation name", "interface a { int main(); };",
     "t.idl:1:19: error: 'main' is reserved in C/C++ and cannot be used as "
     "an operation name"},
    {"C library function as operation name",
     "interface a {\n  void close(in File f);\n};",
     "t.idl:2:8: error: operation name 'close' is a C/POSIX library function: "
     "the generated function of that name would replace the library's in the "
     "master and the worker (the runtime calls it too); rename the operation, "
     "e.g. to 'close_op'"},
    {"library prefix as operation name", "interface a { void ssh_connect(); };",
     "t.idl:1:20: error: operation name 'ssh_connect' is a C/POSIX library "
     "function: the generated function of that name would replace the "
     "library's in the master and the worker (the runtime calls it too); "
     "rename the operation, e.g. to 'ssh_connect_op'"},
    {"reserved prefix", "interface a { void gs_call(); };",
     "t.idl:1:20: error: 'gs_call' cannot be used as an operation name: "
     "names starting with gs_, GS_ or tramp_ are used by the generated code"},
    {"reserved underscore name", "interface a { void f(in int _X); };",
     "t.idl:1:29: error: '_X' cannot be used as a parameter name: names "
     "starting with __ or _ and a capital letter are reserved in C/C++"},
    {"missing parenthesis", "interface a { void f; };",
     "t.idl:1:21: error: expected '(' after operation name 'f', got ';'"},
    {"missing direction", "interface a { void f(File x); };",
     "t.idl:1:22: error: missing direction before 'File'; expected in, out or "
     "inout"},
    {"bad direction", "interface a { void f(input File x); };",
     "t.idl:1:22: error: expected parameter direction (in, out or inout), got "
     "'input'"},
    {"missing type", "interface a { void f(in x); };",
     "t.idl:1:25: error: unknown type 'x'; expected File, string, char, "
     "boolean, short, int, long, float or double"},
    {"missing type before comma", "interface a { void f(in , in int y); };",
     "t.idl:1:25: error: expected parameter type after 'in', got ','"},
    {"unknown parameter type", "interface a { void f(in integer x); };",
     "t.idl:1:25: error: unknown type 'integer'; expected File, string, char, "
     "boolean, short, int, long, float or double. If 'integer' is a class (a "
     "COMPSs object parameter): gsrt passes objects only as files; declare it "
     "'in File x' and serialize the object to that file yourself (write it "
     "before the call, read it in the function)"},
    {"object parameter (COMPSs)",
     "interface a {\n  void f(inout student st);\n};",
     "t.idl:2:16: error: unknown type 'student'; expected File, string, char, "
     "boolean, short, int, long, float or double. If 'student' is a class (a "
     "COMPSs object parameter): gsrt passes objects only as files; declare it "
     "'inout File st' and serialize the object to that file yourself (write "
     "it before the call, read it in the function)"},
    {"static task (COMPSs)", "interface a {\n  static void f(in File x);\n};",
     "t.idl:2:3: error: 'static' (a COMPSs task that is a static class "
     "method) is not supported: gsrt operations are plain functions; remove "
     "'static' and implement the operation as a free function that calls the "
     "method"},
    {"implements an unknown operation",
     "interface a {\n  void f(inout File x);\n  @Constraints(ComputingUnits=2);"
     "\n  @Implements(g);\n  void f8(inout File x);\n};",
     "t.idl:4:3: error: @Implements(g) on 'f8': the interface has no "
     "operation 'g'"},
    {"implements itself",
     "interface a {\n  @Implements(f);\n  void f(inout File x);\n};",
     "t.idl:2:3: error: @Implements(f) on 'f': an operation cannot implement "
     "itself"},
    {"implements an alternative",
     "interface a {\n  void f();\n  @Implements(f)\n  void g();\n"
     "  @Implements(g)\n  void h();\n};",
     "t.idl:5:3: error: @Implements(g) on 'h': 'g' is itself an alternative "
     "of 'f'; write @Implements(f)"},
    {"implements with other parameters",
     "interface a {\n  void f(inout File x, in int[4] v);\n"
     "  @Implements(f);\n  void g(inout File y, in int[5] w);\n};",
     "t.idl:3:3: error: @Implements(f) on 'g': an alternative takes the "
     "parameters and returns the type of the operation it implements (void "
     "f(inout File x, in int[4] v)), got void g(inout File y, in int[5] w)"},
    {"implements with another return type",
     "interface a {\n  int f();\n  @Implements(f);\n  long g();\n};",
     "t.idl:3:3: error: @Implements(f) on 'g': an alternative takes the "
     "parameters and returns the type of the operation it implements (int "
     "f()), got long g()"},
    {"implements without a name",
     "interface a {\n  void f();\n  @Implements(2f);\n  void g();\n};",
     "t.idl:3:3: error: @Implements takes the name of the operation this one "
     "implements, got '2f'"},
    {"void parameter", "interface a { void f(in void x); };",
     "t.idl:1:25: error: void is not a parameter type; expected File, string, "
     "char, boolean, short, int, long, float or double"},
    {"missing parameter name", "interface a { void f(in File); };",
     "t.idl:1:29: error: expected parameter name, got ')'"},
    {"IDL keyword as parameter name", "interface a { void f(in int in); };",
     "t.idl:1:29: error: 'in' is an IDL keyword and cannot be used as a "
     "parameter name"},
    {"missing comma", "interface a { void f(in int x in int y); };",
     "t.idl:1:31: error: expected ',' or ')' after parameter 'x', got 'in'"},
    {"default value", "interface a { void f(in int x = 3); };",
     "t.idl:1:31: error: unexpected character '='"},
    {"duplicate parameter", "interface a { void f(in int x, out int x); };",
     "t.idl:1:40: error: duplicate parameter 'x' in operation 'f'"},
    {"duplicate operation",
     "interface a {\n  void f();\n  int g();\n  int f(in int x);\n};\n",
     "t.idl:4:7: error: duplicate operation 'f' (first declared at line 2)"},
    {"annotation before interface", "@Constraints(x)\ninterface a {",
     "t.idl:1:1: error: @Constraints must come right before an operation"},
    {"annotation at end of body",
     "interface a {\n  void f();\n  @Timeout(5)\n};\n",
     "t.idl:3:3: error: @Timeout must come right before an operation"},
    {"two constraints for one operation",
     "interface a {\n@Constraints(ComputingUnits=1)\n@Constraints("
     "MemorySize=1)\nvoid f();\n};\n",
     "t.idl:3:1: error: more than one @Constraints for the same operation"},
    {"unterminated constraints", "interface a {\n@Constraints(a\nvoid f();",
     "t.idl:2:13: error: unterminated @Constraints(...): ')' must close it on "
     "the same line"},
    {"constraint gsrt does not honour",
     "interface a {\n  @Constraints(ComputingUnits=2, "
     "processorArchitecture=\"x86_64\");\n  void f();\n};\n",
     "t.idl:2:3: error: @Constraints key 'processorArchitecture' is COMPSs's "
     "but gsrt does not honour it; gsrt honours ComputingUnits, MemorySize "
     "(in GB), GPUs and processorType=GPU: remove it or choose hosts for it "
     "in the configuration"},
    {"unknown constraint", "interface a {\n@Constraints(cpus=2)\nvoid f();};",
     "t.idl:2:1: error: unknown @Constraints key 'cpus'; gsrt honours "
     "ComputingUnits, MemorySize (in GB), GPUs and processorType=GPU: remove "
     "it or choose hosts for it in the configuration"},
    {"fractional GPUs", "interface a {\n@Constraints(GPUs=0.5)\nvoid f();};",
     "t.idl:2:1: error: GPUs must be a whole number of devices (1 or more), "
     "got '0.5'"},
    {"a processor neither CPU nor GPU",
     "interface a {\n@Constraints(processorType=FPGA)\nvoid f();};",
     "t.idl:2:1: error: processorType must be CPU or GPU, got 'FPGA'"},
    {"GPUs twice",
     "interface a {\n@Constraints(GPUs=1, processorType=GPU)\nvoid f();};",
     "t.idl:2:1: error: write either GPUs=k or processorType=GPU with "
     "ComputingUnits=k, not both"},
    {"fractional cores",
     "interface a {\n@Constraints(ComputingUnits=1.5)\nvoid f();};",
     "t.idl:2:1: error: ComputingUnits must be a whole number of cores (1 or "
     "more), got '1.5'"},
    {"negative memory",
     "interface a {\n@Constraints(MemorySize=-1)\nvoid f();};",
     "t.idl:2:1: error: MemorySize must be a positive number of GB, got '-1'"},
    {"not key=value", "interface a {\n@Constraints(4)\nvoid f();};",
     "t.idl:2:1: error: @Constraints item '4' is not key=value; write e.g. "
     "ComputingUnits=2"},
    {"wall clock limit as constraint",
     "interface a {\n@Constraints(wallClockLimit=60)\nvoid f();};",
     "t.idl:2:1: error: @Constraints key 'wallClockLimit' is not supported; "
     "use @Timeout(seconds) on its own line"},
    {"timeout not a number", "interface a {\n@Timeout(soon)\nvoid f();};",
     "t.idl:2:1: error: @Timeout takes a positive number of seconds, got "
     "'soon'"},
    {"array return value of length zero", "interface a { long[0] f(); };",
     "t.idl:1:20: error: array length must be a number from 1 to 16384, got "
     "'0'; pass bigger data in a File"},
    {"array return value too long", "interface a {\n  double[20000] f();\n};",
     "t.idl:2:10: error: array length must be a number from 1 to 16384, got "
     "'20000'; pass bigger data in a File"},
    {"array return value without a length", "interface a { long[] f(); };",
     "t.idl:1:20: error: expected the length of the returned array (a "
     "number, e.g. 'long[3]') after '[', got ']'"},
    {"array return value with a parameter's length",
     "interface a { int[n] f(in int n); };",
     "t.idl:1:19: error: a returned array needs a fixed length, e.g. "
     "'int[3]'; for a length given by parameter 'n', declare the operation "
     "void and return the array through an out parameter: 'out int[n] "
     "result'"},
    {"array return value not closed", "interface a { int[3 f(); };",
     "t.idl:1:21: error: expected ']' after the array length, got 'f'"},
    {"array of File returned", "interface a {\n  File[2] f();\n};",
     "t.idl:2:3: error: File cannot be a return type, nor can an array of "
     "File; use an out File parameter per file"},
    {"array of strings returned", "interface a { string[2] f(); };",
     "t.idl:1:21: error: arrays of string are not supported; arrays hold "
     "char, boolean, short, int, long, float or double (pass the values in a "
     "File)"},
    {"array of void returned", "interface a { void[2] f(); };",
     "t.idl:1:19: error: void cannot be an array; an array return value "
     "holds char, boolean, short, int, long, float or double"},
    {"alternative returning another array length",
     "interface a {\n  long[3] f();\n  @Implements(f)\n  long[4] g();\n};",
     "t.idl:3:3: error: @Implements(f) on 'g': an alternative takes the "
     "parameters and returns the type of the operation it implements (long[3] "
     "f()), got long[4] g()"},
    {"array of strings", "interface a { void f(in string[2] s); };",
     "t.idl:1:31: error: arrays of string are not supported; arrays hold "
     "char, boolean, short, int, long, float or double (pass the values in a "
     "File)"},
    {"array length zero", "interface a { void f(in int[0] v); };",
     "t.idl:1:29: error: array length must be a number from 1 to 16384, got "
     "'0'; pass bigger data in a File"},
    {"array length too big", "interface a { void f(in int[100000] v); };",
     "t.idl:1:29: error: array length must be a number from 1 to 16384, got "
     "'100000'; pass bigger data in a File"},
    {"array length not a number", "interface a { void f(in int[8x] v); };",
     "t.idl:1:29: error: array length must be a number from 1 to 16384, got "
     "'8x'; pass bigger data in a File"},
    {"array length missing", "interface a { void f(in int[] v); };",
     "t.idl:1:29: error: expected an array length (a number or the name of an "
     "'in int' parameter) after '[', got ']'"},
    {"array bracket not closed", "interface a { void f(in int[8 v); };",
     "t.idl:1:31: error: expected ']' after the array length, got 'v'"},
    {"array length names no parameter",
     "interface a {\n  void g(in double x, in int[n] v);\n};",
     "t.idl:2:30: error: array length 'n' of parameter 'v' is not a "
     "parameter of 'g'; write a number (int[8]) or the name of an 'in int' "
     "or 'in long' parameter"},
    {"array length from an out parameter",
     "interface a { void g(out double[n] v, out int n); };",
     "t.idl:1:33: error: array length 'n' of parameter 'v' must be an 'in' "
     "short, int or long parameter; 'n' is 'out int'"},
    {"array length from a double",
     "interface a { void g(in double n, in int[n] v); };",
     "t.idl:1:42: error: array length 'n' of parameter 'v' must be an 'in' "
     "short, int or long parameter; 'n' is 'in double'"},
    {"non-ASCII character", "interface a { void f(in int \xc3\xa9); };",
     "t.idl:1:29: error: unexpected character '\\xc3'"},
};

class IdlParserErrorTest : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(IdlParserErrorTest, GivesExactMessage) {
  StatusOr<Interface> parsed = ParseIdl(GetParam().idl, "t.idl");
  ASSERT_FALSE(parsed.ok()) << GetParam().what;
  EXPECT_EQ(parsed.status().code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(parsed.status().message(), GetParam().expected) << GetParam().what;
}

// COMPSs's C binding: annotation lines end with ';', values may be quoted,
// and the Java/Python spellings of the keys are aliases.
TEST(IdlParserTest, ReadsCompssConstraintsAndTimeout) {
  StatusOr<Interface> parsed = ParseIdl(
      "interface sim {\n"
      "  @Constraints(ComputingUnits=\"8\", MemorySize=\"2.5\");\n"
      "  @Timeout(90);\n"
      "  void big(inout File f);\n"
      "  @Constraints(computing_units=2, memorySize=0.5)\n"
      "  void mid(inout File f);\n"
      "  @Timeout(5);  // every kept annotation takes the ';'\n"
      "  void small(inout File f);\n"
      "};\n",
      "sim.idl");
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  const auto& ops = parsed->operations;
  ASSERT_EQ(ops.size(), 3u);
  EXPECT_EQ(ops[0].computing_units, 8);
  EXPECT_EQ(ops[0].memory_gb, 2.5);
  EXPECT_EQ(ops[0].timeout_seconds, 90);
  EXPECT_EQ(ops[1].computing_units, 2);
  EXPECT_EQ(ops[1].memory_gb, 0.5);
  EXPECT_EQ(ops[1].timeout_seconds, 0);
  EXPECT_EQ(ops[2].computing_units, 0);  // not given: one core
  EXPECT_EQ(ops[2].timeout_seconds, 5);
}

// COMPSs's C binding: `TYPE[<size>]` with a number or a parameter's name.
TEST(IdlParserTest, ReadsArraysOfScalars) {
  StatusOr<Interface> parsed = ParseIdl(
      "interface arr {\n"
      "  void f(in int[8] a, inout double[n] r, in long n, out char[2] c);\n"
      "};\n",
      "arr.idl");
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  const std::vector<Param>& p = parsed->operations[0].params;
  ASSERT_EQ(p.size(), 4u);
  EXPECT_EQ(p[0].type, GS_TYPE_INT);
  EXPECT_EQ(p[0].array_length, 8);
  EXPECT_TRUE(p[0].IsArray());
  EXPECT_EQ(p[1].length_param, "n");
  EXPECT_EQ(p[1].array_length, 0);
  EXPECT_TRUE(p[1].IsArray());
  EXPECT_FALSE(p[2].IsArray());
  EXPECT_EQ(p[3].dir, GS_DIR_OUT);
  EXPECT_EQ(Signature(parsed->operations[0]),
            "void f(in int[8] a, inout double[n] r, in long n, out char[2] "
            "c)");
}

// COMPSs's C binding type tests (tests/sources/c/3_type_tests): arrays
// returned by value (`long[3] make_long_array(...)`) next to in, out and
// inout arrays. The whole interface is accepted; the stubs return a
// malloc'd array.
TEST(IdlParserTest, ReadsCompssTypeTestsWithArrayReturnValues) {
  StatusOr<Interface> parsed =
      ParseIdl(testing::ReadFileOrEmpty(kTestdata + "/compss_types.idl"),
               "compss_types.idl");
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  std::map<std::string, const Operation*> ops;
  for (const Operation& op : parsed->operations) ops[op.name] = &op;
  ASSERT_EQ(ops.size(), 15u);
  const Operation& make_long = *ops.at("make_long_array");
  EXPECT_EQ(make_long.return_type, GS_TYPE_LONG);
  EXPECT_EQ(make_long.return_array_length, 3);
  EXPECT_EQ(Signature(make_long),
            "long[3] make_long_array(in long a, in long b, in long c)");
  EXPECT_EQ(CReturnTypeName(make_long), "long*");
  for (const char* name : {"make_int_array", "make_short_array",
                           "make_float_array", "make_double_array"}) {
    EXPECT_EQ(ops.at(name)->return_array_length, 3) << name;
  }
  EXPECT_EQ(ops.at("sum_long_array")->return_array_length, 0);
  EXPECT_EQ(ops.at("sum_long_array")->params[0].array_length, 3);
  EXPECT_EQ(ops.at("split_int")->params[3].length_param, "M");
}

// Every scalar element type may be returned as an array; a single value
// keeps return_array_length 0.
TEST(IdlParserTest, ReadsArrayReturnValuesOfEveryScalarType) {
  StatusOr<Interface> parsed = ParseIdl(
      "interface r {\n"
      "  char[4] c();  boolean[2] b();  short[1] s();  int[16384] i();\n"
      "  long[3] l();  float[5] f();  double[2] d();  long one();\n"
      "};\n",
      "r.idl");
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  const auto& ops = parsed->operations;
  ASSERT_EQ(ops.size(), 8u);
  EXPECT_EQ(CReturnTypeName(ops[0]), "char*");
  EXPECT_EQ(CReturnTypeName(ops[1]), "bool*");
  EXPECT_EQ(ops[3].return_array_length, 16384);
  EXPECT_EQ(IdlReturnTypeName(ops[6]), "double[2]");
  EXPECT_EQ(ops[7].return_array_length, 0);
  EXPECT_EQ(CReturnTypeName(ops[7]), "long");
}

// COMPSs's alternative implementations: the annotation may come before or
// after @Constraints, and the target before or after the alternative.
TEST(IdlParserTest, ReadsAlternativeImplementations) {
  StatusOr<Interface> parsed = ParseIdl(
      "interface alt {\n"
      "  @Implements(solve);\n"
      "  @Constraints(ComputingUnits=8);\n"
      "  void solve8(inout File f, in int[n] v, in int n);\n"
      "  void solve(inout File g, in int[m] w, in int m);\n"
      "};\n",
      "alt.idl");
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  EXPECT_EQ(parsed->operations[0].implements, "solve");
  EXPECT_EQ(parsed->operations[0].computing_units, 8);
  EXPECT_EQ(parsed->operations[1].implements, "");
}

INSTANTIATE_TEST_SUITE_P(Table, IdlParserErrorTest,
                         ::testing::ValuesIn(kErrors));

}  // namespace
}  // namespace gs
