// The functions of stubgen/testdata/compss_types.idl (the interface of
// COMPSs's C binding type tests), run by tests/compss_types_test.sh.
// Arrays returned by value are malloc'd: the caller frees them.
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "compss_types.h"

namespace {

// Little-endian halves: the low half first, as the master expects.
template <typename Half, typename Whole>
void Split(Whole whole, Half* halves) {
  constexpr int kBits = 8 * sizeof(Half);
  halves[0] = static_cast<Half>(whole);
  halves[1] = static_cast<Half>(whole >> kBits);
}

template <typename T>
T* MakeThree(T a, T b, T c) {
  T* values = static_cast<T*>(std::malloc(3 * sizeof(T)));
  if (values == nullptr) throw std::runtime_error("out of memory");
  values[0] = a;
  values[1] = b;
  values[2] = c;
  return values;
}

template <typename T>
void SumIntoFirst(T* values) {
  values[0] = static_cast<T>(values[0] + values[1] + values[2]);
}

}  // namespace

void split_long(long a, int* pair) { Split(a, pair); }

void split_int(int N, int M, const int* a, short* pair) {
  if (M != 2 * N) throw std::runtime_error("split_int: M must be 2 * N");
  for (int i = 0; i < N; ++i) Split(a[i], pair + 2 * i);
}

void split_short(int N, int M, const short* a, char* pair) {
  if (M != 2 * N) throw std::runtime_error("split_short: M must be 2 * N");
  for (int i = 0; i < N; ++i) Split(a[i], pair + 2 * i);
}

long* make_long_array(long a, long b, long c) { return MakeThree(a, b, c); }
void sum_long_array(long* array) { SumIntoFirst(array); }
int* make_int_array(int a, int b, int c) { return MakeThree(a, b, c); }
void sum_int_array(int* array) { SumIntoFirst(array); }
short* make_short_array(short a, short b, short c) {
  return MakeThree(a, b, c);
}
void sum_short_array(short* array) { SumIntoFirst(array); }
float* make_float_array(float a, float b, float c) {
  return MakeThree(a, b, c);
}
void sum_float_array(float* array) { SumIntoFirst(array); }
double* make_double_array(double a, double b, double c) {
  return MakeThree(a, b, c);
}
void sum_double_array(double* array) { SumIntoFirst(array); }

void make_string(char a, char b, char c, char* str) {
  str[0] = a;
  str[1] = b;
  str[2] = c;
  str[3] = '\0';
}

// Only reads: fails the job unless it got a 3-character string.
void split_string(const char* str) {
  if (str[3] != '\0' || std::string(str).size() != 3) {
    throw std::runtime_error("split_string: not a 3-character string");
  }
}
