// The master of tests/compss_types_test.sh: calls every operation of
// COMPSs's C binding type tests interface (stubgen/testdata/
// compss_types.idl) and checks each value it gets back, the arrays
// returned by value (`long[3] make_long_array(...)`) included, against what
// it computes itself. Prints "compss_types: all N checks passed" and exits
// 0, or names the first wrong value and exits 1.
#include "compss_types.h"

#include <gs/gs.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

int g_checks = 0;

bool Check(bool ok, const std::string& what) {
  ++g_checks;
  if (!ok) std::fprintf(stderr, "compss_types: wrong %s\n", what.c_str());
  return ok;
}

// make_T_array(a, b, c) must give back {a, b, c} malloc'd; sum_T_array then
// leaves a + b + c in its first element. Returns false at the first wrong
// value.
template <typename T>
bool CheckMakeAndSum(T* (*make)(T, T, T), void (*sum)(T*), const char* type,
                     T a, T b, T c) {
  const std::string name = type;
  T* made = make(a, b, c);
  bool ok = Check(made != nullptr, "make_" + name + "_array: NULL");
  if (!ok) return false;
  ok &= Check(made[0] == a && made[1] == b && made[2] == c,
              "make_" + name + "_array: values");
  sum(made);
  ok &= Check(
      made[0] == static_cast<T>(a + b + c) && made[1] == b && made[2] == c,
      "sum_" + name + "_array: values");
  std::printf("%s: {%.17g, %.17g, %.17g}\n", name.c_str(),
              static_cast<double>(made[0]), static_cast<double>(made[1]),
              static_cast<double>(made[2]));
  std::free(made);
  return ok;
}

}  // namespace

int main() {
  if (GS_On() != 0) return 1;
  bool ok = true;

  // A long split into ints, the ints into shorts, the shorts into chars:
  // the chars are the long's bytes, lowest first.
  const long whole = 0x4142434445464748L;  // "ABCDEFGH"
  int ints[2] = {};
  split_long(whole, ints);
  ok &=
      Check(ints[0] == 0x45464748 && ints[1] == 0x41424344, "split_long: ints");
  short shorts[4] = {};
  split_int(2, 4, ints, shorts);
  ok &= Check(shorts[0] == 0x4748 && shorts[3] == 0x4142, "split_int: shorts");
  char chars[8] = {};
  split_short(4, 8, shorts, chars);
  ok &= Check(std::string(chars, 8) == "HGFEDCBA", "split_short: chars");

  ok &= CheckMakeAndSum<long>(make_long_array, sum_long_array, "long", 1L << 40,
                              -3, 9000000000L);
  ok &= CheckMakeAndSum<int>(make_int_array, sum_int_array, "int", 1, 1, 1);
  ok &= CheckMakeAndSum<short>(make_short_array, sum_short_array, "short", -300,
                               200, 7);
  ok &= CheckMakeAndSum<float>(make_float_array, sum_float_array, "float", 0.5f,
                               1.25f, -2.0f);
  ok &= CheckMakeAndSum<double>(make_double_array, sum_double_array, "double",
                                0.1, 1e300, -1e300);

  char str[4] = {'x', 'x', 'x', 'x'};
  make_string('L', 'K', 'M', str);
  ok &= Check(std::strcmp(str, "LKM") == 0,
              "make_string: '" + std::string(str, 3) + "'");
  split_string(str);  // a task that only reads: GS_Off says if it failed

  if (ok) std::printf("compss_types: all %d checks passed\n", g_checks);
  return GS_Off(ok ? 0 : 1);
}
