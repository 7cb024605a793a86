// The master of the blocked matrix multiply: a plain sequential program.
// Every call of an operation below becomes a task; gsrt finds that the
// N*N chains of multiply_accumulate are independent and runs them in
// parallel, then this program checks C against a sequential computation.
//
//   matmul [N blocks per side (default 4)] [block size (default 64)]
#include "matmul.h"

#include <gs/gs.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "block.h"

namespace {

std::string Name(const char* m, int i, int j) {
  return std::string("matmul-") + m + "_" + std::to_string(i) + "_" +
         std::to_string(j) + ".txt";
}

}  // namespace

int main(int argc, char** argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 4;
  int bs = argc > 2 ? std::atoi(argv[2]) : 64;
  if (n < 1 || bs < 1) {
    std::fprintf(stderr, "usage: %s [blocks per side >= 1] [block size >= 1]\n",
                 argv[0]);
    return 2;
  }
  if (GS_On() != 0) return 1;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      fill_block(Name("A", i, j).c_str(), bs, 1, i, j);
      fill_block(Name("B", i, j).c_str(), bs, 2, i, j);
      zero_block(Name("C", i, j).c_str(), bs);
    }
  }
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        multiply_accumulate(Name("C", i, j).c_str(), Name("A", i, k).c_str(),
                            Name("B", k, j).c_str(), bs);
  // A synchronous call: the master waits for this value.
  double corner = block_sum(Name("C", 0, 0).c_str(), bs);

  // The check: read every C block (GS_FOpen waits for its last writer) and
  // compare with the same arithmetic done here, in order.
  double max_diff = 0;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      matmul::Block expect(static_cast<size_t>(bs) * bs, 0.0);
      for (int k = 0; k < n; ++k)
        matmul::MultiplyAccumulate(expect, matmul::Fill(bs, 1, i, k),
                                   matmul::Fill(bs, 2, k, j), bs);
      FILE* f = GS_FOpen(Name("C", i, j).c_str(), R);
      if (!f) {
        std::fprintf(stderr, "matmul: cannot read block C(%d,%d)\n", i, j);
        GS_Off(1);
        return 1;
      }
      matmul::Block got = matmul::Read(f, bs);
      GS_FClose(f);
      for (size_t e = 0; e < got.size(); ++e)
        max_diff = std::fmax(max_diff, std::fabs(got[e] - expect[e]));
      if (i == 0 && j == 0) {
        double sum = 0;
        for (double v : expect) sum += v;
        max_diff = std::fmax(max_diff, std::fabs(sum - corner));
      }
    }
  }
  int status = GS_Off(max_diff == 0 ? 0 : 1);
  if (max_diff == 0 && status == 0) {
    std::printf(
        "matmul: %dx%d blocks of %dx%d: result matches the sequential "
        "computation\n",
        n, n, bs, bs);
    return 0;
  }
  std::printf(
      "matmul: result DIFFERS from the sequential computation (max difference "
      "%g)\n",
      max_diff);
  return 1;
}
