#include "stubgen/idl_model.h"

#include <gtest/gtest.h>

#include "stubgen/idl_names.h"

namespace gs {
namespace {

TEST(IdlModelTest, TypeNamesRoundTrip) {
  for (gs_type t : {GS_TYPE_VOID, GS_TYPE_FILE, GS_TYPE_STRING, GS_TYPE_CHAR,
                    GS_TYPE_BOOLEAN, GS_TYPE_SHORT, GS_TYPE_INT, GS_TYPE_LONG,
                    GS_TYPE_FLOAT, GS_TYPE_DOUBLE}) {
    ASSERT_TRUE(TypeFromIdlName(IdlTypeName(t)).has_value()) << t;
    EXPECT_EQ(*TypeFromIdlName(IdlTypeName(t)), t);
  }
  EXPECT_FALSE(TypeFromIdlName("file").has_value());
  EXPECT_FALSE(TypeFromIdlName("bool").has_value());
  EXPECT_EQ(*DirFromIdlName("inout"), GS_DIR_INOUT);
  EXPECT_FALSE(DirFromIdlName("In").has_value());
}

TEST(IdlModelTest, CAndAbiSpellings) {
  EXPECT_STREQ(CTypeName(GS_TYPE_FILE), "const char*");
  EXPECT_STREQ(CTypeName(GS_TYPE_STRING), "const char*");
  EXPECT_STREQ(CTypeName(GS_TYPE_BOOLEAN), "bool");
  EXPECT_STREQ(AbiTypeName(GS_TYPE_LONG), "GS_TYPE_LONG");
  EXPECT_STREQ(AbiDirName(GS_DIR_OUT), "GS_DIR_OUT");
}

TEST(IdlModelTest, ByPointerOnlyForOutAndInoutScalars) {
  EXPECT_TRUE(IsByPointer({GS_DIR_OUT, GS_TYPE_INT, "n"}));
  EXPECT_TRUE(IsByPointer({GS_DIR_INOUT, GS_TYPE_DOUBLE, "d"}));
  EXPECT_FALSE(IsByPointer({GS_DIR_IN, GS_TYPE_INT, "n"}));
  EXPECT_FALSE(IsByPointer({GS_DIR_OUT, GS_TYPE_FILE, "f"}));
  EXPECT_FALSE(IsByPointer({GS_DIR_INOUT, GS_TYPE_FILE, "f"}));
}

TEST(IdlModelTest, Signature) {
  Operation op;
  op.name = "add";
  op.params = {{GS_DIR_IN, GS_TYPE_FILE, "a"},
               {GS_DIR_INOUT, GS_TYPE_DOUBLE, "acc"}};
  EXPECT_EQ(Signature(op), "void add(in File a, inout double acc)");
  op.params.clear();
  op.return_type = GS_TYPE_LONG;
  EXPECT_EQ(Signature(op), "long add()");
}

TEST(IdlNamesTest, AcceptsOrdinaryNamesAndRefusesReservedOnes) {
  EXPECT_EQ(CheckName("multiply", "a name"), "");
  EXPECT_EQ(CheckName("_private", "a name"), "");
  EXPECT_EQ(CheckName("File2", "a name"), "");
  EXPECT_NE(CheckName("File", "a name"), "");
  EXPECT_NE(CheckName("inout", "a name"), "");
  EXPECT_NE(CheckName("interface", "a name"), "");
  EXPECT_NE(CheckName("class", "a name"), "");
  EXPECT_NE(CheckName("bool", "a name"), "");
  EXPECT_NE(CheckName("NULL", "a name"), "");
  EXPECT_NE(CheckName("gs_args", "a name"), "");
  EXPECT_NE(CheckName("tramp_f", "a name"), "");
  EXPECT_NE(CheckName("__x", "a name"), "");
}

}  // namespace
}  // namespace gs
