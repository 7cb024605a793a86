// The operations of matmul.idl, as the worker runs them.
#include "block.h"
#include "matmul.h"

void fill_block(const char* block, int bs, int seed, int row, int col) {
  matmul::WriteFile(block, matmul::Fill(bs, seed, row, col), bs);
}

void zero_block(const char* block, int bs) {
  matmul::WriteFile(block, matmul::Block(static_cast<size_t>(bs) * bs, 0.0),
                    bs);
}

void multiply_accumulate(const char* c, const char* a, const char* b, int bs) {
  matmul::Block cb = matmul::ReadFile(c, bs);
  matmul::MultiplyAccumulate(cb, matmul::ReadFile(a, bs),
                             matmul::ReadFile(b, bs), bs);
  matmul::WriteFile(c, cb, bs);
}

double block_sum(const char* block, int bs) {
  double sum = 0;
  for (double v : matmul::ReadFile(block, bs)) sum += v;
  return sum;
}
