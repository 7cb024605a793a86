#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <thread>

// No #include "ledger.h" on purpose: gsrt_add_application forces the
// generated header in, and this file checks that it links without it.

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

void record(const char* book, const char* entry, double amount) {
  char num[64];
  std::snprintf(num, sizeof num, "\t%.2f\n", amount);
  // Entries may contain newlines: escape them so one entry is one line.
  std::string e;
  for (const char* p = entry; *p; ++p)
    e += *p == '\n' ? std::string("\\n") : std::string(1, *p);
  WriteAll(book, e + num, "ab");
}

void tag_lines(const char* book, const char* tag, const char* tagged) {
  std::string in = ReadAll(book), out;
  size_t start = 0;
  while (start < in.size()) {
    size_t nl = in.find('\n', start);
    if (nl == std::string::npos) nl = in.size();
    out += std::string(tag) + in.substr(start, nl - start) + "\n";
    start = nl + 1;
  }
  WriteAll(tagged, out);
}

void merge(const char* a, const char* b, const char* merged) {
  WriteAll(merged, ReadAll(a) + ReadAll(b));
}

double balance(const char* book) {
  std::string in = ReadAll(book);
  double sum = 0;
  size_t pos = 0;
  while ((pos = in.find('\t', pos)) != std::string::npos)
    sum += std::strtod(in.c_str() + ++pos, nullptr);
  return sum;
}

void count(const char* book, int* entries, long* total_chars) {
  std::string in = ReadAll(book);
  *entries = 0;
  for (char c : in) *entries += c == '\n';
  *total_chars += static_cast<long>(in.size());
}

void scalars(const char* out, char c, bool b, short s, int i, long l, float f,
             double d) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "%d %d %d %d %ld %a %a\n", c, b, s, i, l, f,
                d);
  WriteAll(out, buf);
}

void wait_for(const char* gate, int max_seconds) {
  const auto until =
      std::chrono::steady_clock::now() + std::chrono::seconds(max_seconds);
  while (!std::filesystem::exists(gate)) {
    if (std::chrono::steady_clock::now() > until) {
      throw std::runtime_error(std::string("no ") + gate + " after " +
                               std::to_string(max_seconds) + " s");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}
