/* Compiled as C by the stubgen_testdata_code target: the generated header
 * must be valid C, since C masters include it too. */
#include "compss.h"
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
