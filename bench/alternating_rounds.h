// What the program-as-operation benchmarks share (binary_bench,
// mpi_bench): rounds of the direct baseline and of gsrt, alternating so
// that other load on the machine falls on both sides alike, each printed
// as it ends; the best rate of each side and the range of the rounds'
// ratios.
#ifndef GSRT_BENCH_ALTERNATING_ROUNDS_H_
#define GSRT_BENCH_ALTERNATING_ROUNDS_H_

#include <algorithm>
#include <cstdio>

struct AlternatingRounds {
  double best_direct = 0;
  double best_gsrt = 0;
  double low = 1e300;  // the lowest and highest gsrt / direct of a round
  double high = 0;
  double ratio() const { return best_gsrt / best_direct; }
};

// `direct()` and `gsrt()` return jobs/s; rates print with `decimals`.
template <typename Direct, typename Gsrt>
AlternatingRounds RunAlternatingRounds(int rounds, int decimals, Direct direct,
                                       Gsrt gsrt) {
  AlternatingRounds r;
  for (int i = 0; i < rounds; ++i) {
    const double d = direct();
    const double g = gsrt();
    std::printf("round %d: direct %.*f jobs/s, gsrt %.*f jobs/s (%.2f)\n",
                i + 1, decimals, d, decimals, g, g / d);
    std::fflush(stdout);
    r.best_direct = std::max(r.best_direct, d);
    r.best_gsrt = std::max(r.best_gsrt, g);
    r.low = std::min(r.low, g / d);
    r.high = std::max(r.high, g / d);
  }
  return r;
}

#endif  // GSRT_BENCH_ALTERNATING_ROUNDS_H_
