// The functions of tests/values/values.idl. Strings given back are malloc'd
// (the contract of string results); the inout one is freed and replaced.
#include <cstdlib>
#include <cstring>
#include <string>

#include "values.h"

char* greet(const char* name, char** greeting, char** log) {
  std::string before = *log != nullptr ? *log : "";
  std::free(*log);
  *log = strdup((before + ";greet(" + name + ")").c_str());
  *greeting = strdup(("hello, " + std::string(name) + "!").c_str());
  return strdup(("len=" + std::to_string(std::strlen(name))).c_str());
}

void stats(int n, const double* samples, double* summary, int* ranks) {
  summary[0] = summary[1] = n > 0 ? samples[0] : 0;
  summary[2] = 0;
  for (int i = 0; i < n; ++i) {
    if (samples[i] < summary[0]) summary[0] = samples[i];
    if (samples[i] > summary[1]) summary[1] = samples[i];
    summary[2] += samples[i];
    ranks[i] = ranks[i] * 10 + i;
  }
}

double total(const double* summary) {
  return summary[0] + summary[1] + summary[2];
}

char* where(int call) {
  return strdup(("narrow " + std::to_string(call)).c_str());
}
char* where_wide(int call) {
  return strdup(("wide " + std::to_string(call)).c_str());
}
