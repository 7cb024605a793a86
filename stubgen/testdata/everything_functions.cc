// The user's functions for everything.idl, linked with the generated
// everything-worker.cc into stubgen_everything_worker. Each function makes
// what it received visible (in a file or in its results) so that
// generated_worker_test.cc can check the whole path argv -> function ->
// result file.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "everything.h"

namespace {

std::string ReadAll(const char* path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void WriteAll(const char* path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

}  // namespace

void ins(const char* f, const char* s, char c, bool b, short sh, int i, long l,
         float fl, double d, const char* dump) {
  std::ostringstream text;
  text.precision(17);
  text << "f=" << ReadAll(f) << "\ns=" << s << "\nc=" << static_cast<int>(c)
       << "\nb=" << b << "\nsh=" << sh << "\ni=" << i << "\nl=" << l
       << "\nfl=" << fl << "\nd=" << d << "\n";
  WriteAll(dump, text.str());
}

void outs(const char* f, char* c, bool* b, short* sh, int* i, long* l,
          float* fl, double* d) {
  WriteAll(f, "outs\n");
  *c = 'A';
  *b = true;
  *sh = -7;
  *i = 42;
  *l = 1L << 40;
  *fl = 0.5f;
  *d = -2.25;
}

void inouts(const char* f, char* c, bool* b, short* sh, int* i, long* l,
            float* fl, double* d) {
  WriteAll(f, ReadAll(f) + "inouts\n");
  *c = static_cast<char>(*c + 1);
  *b = !*b;
  *sh = static_cast<short>(*sh + 1);
  *i += 1;
  *l += 1;
  *fl *= 2;
  *d *= 2;
}

char ret_char(char x) { return static_cast<char>(x + 1); }
bool ret_boolean(bool x) { return !x; }
short ret_short(short x) { return static_cast<short>(x + 1); }
int ret_int(int x) { return x + 1; }
long ret_long(long x) { return x + 1; }
float ret_float(float x) { return x * 2; }
double ret_double(double x) { return x * 2; }

void nothing(void) {}
int no_params(void) { return 7; }

int mixed(const char* c, double x, int* n) {
  std::string text = ReadAll(c) + std::to_string(x) + "\n";
  WriteAll(c, text);
  *n = static_cast<int>(text.size());
  return -1;
}

void fails(const char* why) { throw std::runtime_error(why); }

// io: the input freed and replaced; o and the return value: fresh strings.
char* strings(const char* s, char** o, char** io) {
  std::string before = *io != nullptr ? *io : "(null)";
  std::free(*io);
  *io = strdup((before + "+" + s).c_str());
  *o = strdup(("out:" + std::string(s) + "\nline2\\").c_str());
  return strdup("ret");
}

// Breaks the contract: the worker must fail the job, naming 'o'.
void null_string(char** o) { *o = nullptr; }

// o[i] = v[i] * a[i % 3]; io's two chars each go up by one.
void arrays(const int* a, const double* v, long n, double* o, char* io) {
  for (long i = 0; i < n; ++i) o[i] = v[i] * a[i % 3];
  io[0] = static_cast<char>(io[0] + 1);
  io[1] = static_cast<char>(io[1] + 1);
}

// {x, x + 1, x * 2}, malloc'd: the worker frees it once it is reported.
long* ret_long_array(long x) {
  long* values = static_cast<long*>(std::malloc(3 * sizeof(long)));
  values[0] = x;
  values[1] = x + 1;
  values[2] = x * 2;
  return values;
}

// Breaks the contract: a returned array must not be NULL.
double* null_array(void) { return nullptr; }

// Alternatives of ret_int: different results, so a test sees which ran.
int ret_int_wide(int y) { return y + 100; }
int ret_int_other(int z) { return z + 200; }
