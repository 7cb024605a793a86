// Block arithmetic shared by the worker functions and the master's
// sequential check, so both compute with the same operation order.
#ifndef GSRT_EXAMPLES_MATMUL_BLOCK_H_
#define GSRT_EXAMPLES_MATMUL_BLOCK_H_

#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace matmul {

using Block = std::vector<double>;

inline double Pattern(int seed, int row, int col, int i, int j, int bs) {
  // Small integers plus a fraction: exact in binary, varied across blocks.
  unsigned h =
      static_cast<unsigned>(seed * 7919 + row * 131 + col * 17 + i * bs + j);
  h = h * 2654435761u;
  return static_cast<double>(h % 97) / 8.0 - 6.0;
}

inline Block Fill(int bs, int seed, int row, int col) {
  Block b(static_cast<size_t>(bs) * bs);
  for (int i = 0; i < bs; ++i)
    for (int j = 0; j < bs; ++j)
      b[i * bs + j] = Pattern(seed, row, col, i, j, bs);
  return b;
}

inline void MultiplyAccumulate(Block& c, const Block& a, const Block& b,
                               int bs) {
  for (int i = 0; i < bs; ++i)
    for (int k = 0; k < bs; ++k) {
      double aik = a[i * bs + k];
      for (int j = 0; j < bs; ++j) c[i * bs + j] += aik * b[k * bs + j];
    }
}

inline Block Read(FILE* f, int bs) {
  Block b(static_cast<size_t>(bs) * bs);
  for (double& v : b) {
    if (std::fscanf(f, "%la", &v) != 1) {
      throw std::runtime_error("block file is shorter than " +
                               std::to_string(bs * bs) + " values");
    }
  }
  return b;
}

inline Block ReadFile(const char* path, int bs) {
  FILE* f = std::fopen(path, "r");
  if (!f) throw std::runtime_error(std::string("cannot open ") + path);
  Block b = Read(f, bs);
  std::fclose(f);
  return b;
}

inline void Write(FILE* f, const Block& b, int bs) {
  for (int i = 0; i < bs; ++i) {
    for (int j = 0; j < bs; ++j)
      std::fprintf(f, j ? " %a" : "%a", b[i * bs + j]);
    std::fputc('\n', f);
  }
}

inline void WriteFile(const char* path, const Block& b, int bs) {
  FILE* f = std::fopen(path, "w");
  if (!f) throw std::runtime_error(std::string("cannot create ") + path);
  Write(f, b, bs);
  if (std::fclose(f) != 0)
    throw std::runtime_error(std::string("cannot write ") + path);
}

}  // namespace matmul

#endif  // GSRT_EXAMPLES_MATMUL_BLOCK_H_
