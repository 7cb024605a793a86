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
      {"@MPI(binary=\"x\", processes=0)", "void f(in File a)",
       "@MPI processes is a whole number of processes, 1 or more"},
      {"@MPI(binary=\"x\", processes=2, processesPerNode=4)",
       "void f(in File a)", "processesPerNode=4 is more than processes=2"},
      {"@MPI(binary=\"x\", runner=\"/opt/mpirun\")", "void f(in File a)",
       "@MPI runner is the program that starts the ranks"},
      {"@MPI(binary=\"x\", computingNodes=2)", "void f(in File a)",
       "give processes=N and processesPerNode=P"},
      {"@MPI(binary=\"x\", hosts=2)", "void f(in File a)",
       "unknown @MPI key 'hosts'; gsrt takes runner, processes, "
       "processesPerNode, binary"},
      {"@MPI(processes=2)", "void f(in File a)", "@MPI needs binary="},
      {"@MPI(binary=\"x\")", "int f(in File a)",
       "@MPI on 'f': a program returns no value"},
  };
  for (const Case& c : cases) {
    auto iface = Parse(c.annotation, c.op);
    ASSERT_FALSE(iface.ok()) << c.annotation << " " << c.op;
    EXPECT_THAT(iface.status().message(), HasSubstr("t.idl:2:"))
        << c.annotation;
    EXPECT_THAT(iface.status().message(), HasSubstr(c.error)) << c.annotation;
  }
}

TEST(IdlBinaryTest, MpiRanksOverNodes) {
  auto iface = Parse(
      "@MPI(binary=\"parts\", runner=\"srun\", processes=4, "
      "processesPerNode=2, args=\"{merged}\")",
      "void parts(out File merged)");
  ASSERT_TRUE(iface.ok()) << iface.status().message();
  const Operation& op = iface->operations[0];
  ASSERT_TRUE(op.binary && op.binary->mpi);
  EXPECT_EQ(op.binary->program, "parts");
  EXPECT_EQ(op.binary->mpi->runner, "srun");
  EXPECT_EQ(op.binary->mpi->processes, 4);
  EXPECT_EQ(op.binary->mpi->per_node, 2);
  // Two nodes of two cores each.
  EXPECT_EQ(op.computing_units, 2);
  EXPECT_EQ(op.nodes, 2);

  // Without processesPerNode: every rank on one node; 3 over 2 a node
  // spans 2 nodes.
  auto one = Parse("@MPI(binary=\"p\", processes=3)", "void f(in File a)");
  ASSERT_TRUE(one.ok()) << one.status().message();
  EXPECT_EQ(one->operations[0].binary->mpi->runner, "mpirun");
  EXPECT_EQ(one->operations[0].computing_units, 3);
  EXPECT_EQ(one->operations[0].nodes, 1);
  auto odd = Parse("@MPI(binary=\"p\", processes=3, processes_per_node=2)",
                   "void f(in File a)");
  ASSERT_TRUE(odd.ok()) << odd.status().message();
  EXPECT_EQ(odd->operations[0].nodes, 2);

  // Its processes are its cores: ComputingUnits beside it is refused.
  auto both = ParseIdl(
      "interface t {\n  @MPI(binary=\"p\", processes=2)\n"
      "  @Constraints(ComputingUnits=4)\n  void f(in File a);\n};\n",
      "t.idl");
  ASSERT_FALSE(both.ok());
  EXPECT_THAT(both.status().message(),
              HasSubstr("its processes are its cores; remove ComputingUnits"));
  // And it is one program: @Binary beside it is refused.
  auto two = ParseIdl(
      "interface t {\n  @MPI(binary=\"p\")\n  @Binary(binary=\"q\")\n"
      "  void f(in File a);\n};\n",
      "t.idl");
  ASSERT_FALSE(two.ok());
  EXPECT_THAT(two.status().message(),
              HasSubstr("t.idl:3:3: error: more than one @Binary or @MPI"));
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
