#include <cstdio>
#include <cstdlib>
#include <random>
#include <stdexcept>
#include <string>

namespace {
std::string ReadAll(const char* path) {
  std::string s;
  if (FILE* f = std::fopen(path, "rb")) {
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) s.append(buf, n);
    std::fclose(f);
  }
  return s;
}
void WriteAll(const char* path, const std::string& s, const char* mode = "wb") {
  FILE* f = std::fopen(path, mode);
  if (!f) throw std::runtime_error(std::string("cannot write ") + path);
  std::fwrite(s.data(), 1, s.size(), f);
  std::fclose(f);
}
}  // namespace

void clean(const char* raw, const char* cleaned) {
  std::string in = ReadAll(raw), out;
  size_t start = 0;
  while (start < in.size()) {
    size_t nl = in.find('\n', start);
    if (nl == std::string::npos) nl = in.size();
    std::string line = in.substr(start, nl - start);
    if (!line.empty() && line[0] != '#') out += line + "\n";
    start = nl + 1;
  }
  WriteAll(cleaned, out);
}

void total(const char* cleaned, int scale, const char* sum) {
  std::string in = ReadAll(cleaned);
  long total = 0;
  const char* p = in.c_str();
  char* end;
  while (*p) {
    long v = std::strtol(p, &end, 10);
    if (end == p) {
      ++p;
      continue;
    }
    total += v;
    p = end;
  }
#ifdef TALLY_CHANGED
  total += 1000;  // the "changed function" of the reuse test
#endif
  WriteAll(sum, std::to_string(total * scale) + "\n");
}

void merge(const char* report, const char* part) {
  WriteAll(report, ReadAll(part), "ab");
}

int lines(const char* report) {
  int n = 0;
  for (char c : ReadAll(report)) n += c == '\n';
  return n;
}

void stamp(const char* out) {
  std::random_device rd;
  WriteAll(out, std::to_string(rd()) + "\n");
}
