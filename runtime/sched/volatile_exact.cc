#include "runtime/sched/volatile_exact.h"

#include <cmath>
#include <utility>

namespace gs {

namespace {

// Solves A x = b (A n x n, row-major) by Gaussian elimination with partial
// pivoting, for the two right-hand sides at once.
void Solve(std::vector<double> a, size_t n, std::vector<double>* b1,
           std::vector<double>* b2) {
  for (size_t c = 0; c < n; ++c) {
    size_t pivot = c;
    for (size_t r = c + 1; r < n; ++r)
      if (std::abs(a[r * n + c]) > std::abs(a[pivot * n + c])) pivot = r;
    if (pivot != c) {
      for (size_t k = 0; k < n; ++k) std::swap(a[c * n + k], a[pivot * n + k]);
      std::swap((*b1)[c], (*b1)[pivot]);
      std::swap((*b2)[c], (*b2)[pivot]);
    }
    double d = a[c * n + c];
    for (size_t r = c + 1; r < n; ++r) {
      double f = a[r * n + c] / d;
      if (f == 0) continue;
      for (size_t k = c; k < n; ++k) a[r * n + k] -= f * a[c * n + k];
      (*b1)[r] -= f * (*b1)[c];
      (*b2)[r] -= f * (*b2)[c];
    }
  }
  for (size_t c = n; c-- > 0;) {
    for (size_t k = c + 1; k < n; ++k) {
      (*b1)[c] -= a[c * n + k] * (*b1)[k];
      (*b2)[c] -= a[c * n + k] * (*b2)[k];
    }
    (*b1)[c] /= a[c * n + c];
    (*b2)[c] /= a[c * n + c];
  }
}

}  // namespace

std::optional<ExactStep> ExactStepOf(
    const std::vector<AvailabilityChain>& hosts) {
  const size_t n = hosts.size();
  if (n > kMaxExactHosts) return std::nullopt;
  // A host that never leaves RECLAIMED makes the system singular.
  for (const AvailabilityChain& c : hosts)
    if (c.p[1][1] >= 1) return std::nullopt;
  if (n == 0) return ExactStep{};
  // Joint states without DOWN: bit q set = host q RECLAIMED. State 0 is
  // all UP; the transient ones are 1 .. 2^n - 1, index state - 1.
  const size_t states = size_t{1} << n, m = states - 1;
  auto move = [&](size_t from, size_t to) {
    double p = 1;
    for (size_t q = 0; q < n; ++q) {
      int i = (from >> q) & 1, j = (to >> q) & 1;  // 0 UP, 1 RECLAIMED
      p *= hosts[q].p[i][j];
    }
    return p;
  };
  // For transient x: q_x = P(reach all-UP before DOWN), g_x = E[length *
  // 1{success}]:
  //   q = T_RU + T_RR q,   g = T_RU + T_RR (q + g)
  // so (I - T_RR) q = T_RU and (I - T_RR) g = T_RU + T_RR q.
  std::vector<double> a(m * m, 0), t_ru(m), q(m);
  for (size_t x = 1; x < states; ++x) {
    t_ru[x - 1] = move(x, 0);
    for (size_t y = 1; y < states; ++y)
      a[(x - 1) * m + (y - 1)] = (x == y ? 1 : 0) - move(x, y);
  }
  q = t_ru;
  std::vector<double> unused(m, 0);
  if (m > 0) Solve(a, m, &q, &unused);
  std::vector<double> rhs(m);
  for (size_t x = 1; x < states; ++x) {
    double s = t_ru[x - 1];
    for (size_t y = 1; y < states; ++y) s += move(x, y) * q[y - 1];
    rhs[x - 1] = s;
  }
  std::vector<double> g = rhs;
  if (m > 0) Solve(a, m, &g, &unused);
  // From all-UP: one slot to the next state, then as above.
  ExactStep step;
  double success = move(0, 0), length = move(0, 0);
  for (size_t y = 1; y < states; ++y) {
    success += move(0, y) * q[y - 1];
    length += move(0, y) * (q[y - 1] + g[y - 1]);
  }
  step.success = success;
  step.slots = success > 0 ? length / success : 1;
  return step;
}

double ExactSuccessProbability(const ExactStep& step, double w) {
  return std::pow(step.success, std::max(0.0, w - 1));
}

double ExactExpectedSlots(const ExactStep& step, double w) {
  return w <= 0 ? 0 : 1 + (w - 1) * step.slots;
}

}  // namespace gs
