/* Compiled as C by the stubgen_testdata_code target: the generated header
 * must be valid C, since C masters include it too. */
#include <stdlib.h>

#include "compss.h"
#include "compss_types.h"
#include "everything.h"

int everything_header_is_c(void) {
  int n = 0;
  const int a[3] = {1, 2, 3};
  const double v[2] = {0.5, 1.5};
  double o[2];
  char io[2] = {'a', 'b'};
  char* out = 0;
  char* inout = 0;
  char* ret;
  mixed("c.txt", 1.5, &n);
  arrays(a, v, 2, o, io);
  ret = strings("s", &out, &inout);
  if (is_sorted(2, (const float[]){1, 2})) n += count("f.txt");
  return ret_boolean(true) && ret != 0 ? n : 0;
}

/* Arrays returned by value come back as malloc'd pointers. */
long array_returns_are_c(void) {
  long* made = make_long_array(1, 2, 3);
  long* three = ret_long_array(1);
  double* triple = make_double_array(0.5, 1, 2);
  long sum;
  sum_long_array(made);
  sum = made[0] + three[2] + (long)triple[2];
  free(made);
  free(three);
  free(triple);
  return sum;
}
