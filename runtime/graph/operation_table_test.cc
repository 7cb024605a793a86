#include "runtime/graph/operation_table.h"

#include <gtest/gtest.h>

namespace gs {
namespace {

const gs_param_desc kParams[] = {{"f", GS_TYPE_FILE, GS_DIR_IN, 0, 0},
                                 {"n", GS_TYPE_INT, GS_DIR_OUT, 0, 0}};
const gs_operation kA = {"a", GS_TYPE_VOID, 1, kParams, 0, 0, 0, nullptr, 0};
const gs_operation kB = {"b", GS_TYPE_VOID, 2, kParams, 0, 0, 0, nullptr, 0};

TEST(OperationTableTest, NumbersOperationsInOrderOfFirstUse) {
  OperationTable ops;
  // Repeats (the last operation is remembered) and returns to older ones.
  EXPECT_EQ(ops.Intern(&kA), 0u);
  EXPECT_EQ(ops.Intern(&kA), 0u);
  EXPECT_EQ(ops.Intern(&kB), 1u);
  EXPECT_EQ(ops.Intern(&kB), 1u);
  EXPECT_EQ(ops.Intern(&kA), 0u);
  EXPECT_EQ(ops.Intern(&kB), 1u);
  ASSERT_EQ(ops.size(), 2u);
  EXPECT_EQ(ops[0].name, "a");
  EXPECT_EQ(ops[1].num_files, 1);
  EXPECT_FALSE(ops[0].synchronous);
  EXPECT_TRUE(ops[1].synchronous);  // an out scalar
}

}  // namespace
}  // namespace gs
