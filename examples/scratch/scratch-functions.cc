#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "scratch.h"
#include "series.h"

void simulate(const char* out, int step, int count) {
  FILE* f = std::fopen(out, "w");
  if (!f) throw std::runtime_error(std::string("cannot create ") + out);
  for (int i = 0; i < count; ++i)
    std::fprintf(f, "%a\n", scratch::Sample(step, i));
  std::fclose(f);
}

void reduce(const char* in, const char* partial) {
  FILE* f = std::fopen(in, "r");
  if (!f) throw std::runtime_error(std::string("cannot open ") + in);
  double v, sum = 0, max = -1e300;
  long n = 0;
  while (std::fscanf(f, "%la", &v) == 1) {
    sum += v;
    max = v > max ? v : max;
    ++n;
  }
  std::fclose(f);
  if (n == 0) throw std::runtime_error(std::string("no samples in ") + in);
  FILE* out = std::fopen(partial, "w");
  std::fprintf(out, "%.17g %.17g", sum / n, max);
  std::fclose(out);
}

void collect(const char* report, const char* partial, const char* label) {
  std::string line = label;
  line += ": ";
  FILE* p = std::fopen(partial, "r");
  if (!p) throw std::runtime_error(std::string("cannot open ") + partial);
  char buf[256];
  size_t n = std::fread(buf, 1, sizeof buf, p);
  std::fclose(p);
  line.append(buf, n);
  FILE* r = std::fopen(report, "a");
  if (!r) throw std::runtime_error(std::string("cannot append to ") + report);
  std::fprintf(r, "%s\n", line.c_str());
  std::fclose(r);
}
