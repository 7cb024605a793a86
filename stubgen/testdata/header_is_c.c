/* Compiled as C by the stubgen_testdata_code target: the generated header
 * must be valid C, since C masters include it too. */
#include "everything.h"

int everything_header_is_c(void) {
  int n = 0;
  mixed("c.txt", 1.5, &n);
  return ret_boolean(true) ? n : 0;
}
