#include "noop.h"

void noop(int) {}
