#include "sim/instances/makespan_lower_bound.h"

#include <glpk.h>

#include <algorithm>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace gs {

Seconds SimpleLowerBound(const EtcMatrix& etc) {
  Seconds longest = 0, sum = 0;
  for (size_t t = 0; t < etc.tasks; ++t) {
    Seconds fastest = etc.time(t, 0);
    for (size_t m = 1; m < etc.machines; ++m)
      fastest = std::min(fastest, etc.time(t, m));
    longest = std::max(longest, fastest);
    sum += fastest;
  }
  return etc.machines ? std::max(longest, sum / etc.machines) : 0;
}

namespace {

struct ProbDeleter {
  void operator()(glp_prob* p) const { glp_delete_prob(p); }
};

// The LP of the header with every x_tm free to be used; column 1 is T,
// column 2 + t * machines + m is x_tm (GLPK counts from 1).
class AssignmentLp {
 public:
  explicit AssignmentLp(const EtcMatrix& etc)
      : etc_(etc), lp_(glp_create_prob()) {
    glp_prob* lp = lp_.get();
    glp_set_obj_dir(lp, GLP_MIN);
    const int tasks = static_cast<int>(etc.tasks);
    const int machines = static_cast<int>(etc.machines);
    glp_add_rows(lp, tasks + machines);
    for (int t = 1; t <= tasks; ++t) glp_set_row_bnds(lp, t, GLP_FX, 1, 1);
    for (int m = 1; m <= machines; ++m)
      glp_set_row_bnds(lp, tasks + m, GLP_UP, 0, 0);  // load - T <= 0
    glp_add_cols(lp, 1 + tasks * machines);
    glp_set_col_bnds(lp, 1, GLP_LO, 0, 0);
    glp_set_obj_coef(lp, 1, 1);
    // Times are scaled by the largest one so that the solver's absolute
    // tolerances mean the same on every instance.
    scale_ = 0;
    for (Seconds p : etc.values) scale_ = std::max(scale_, p);
    if (scale_ <= 0) scale_ = 1;
    std::vector<int> rows(1), cols(1);  // GLPK ignores index 0
    std::vector<double> values(1);
    for (int m = 1; m <= machines; ++m) {
      rows.push_back(tasks + m), cols.push_back(1), values.push_back(-1);
    }
    for (int t = 0; t < tasks; ++t) {
      for (int m = 0; m < machines; ++m) {
        const int col = Column(t, m);
        glp_set_col_bnds(lp, col, GLP_LO, 0, 0);
        rows.push_back(t + 1), cols.push_back(col), values.push_back(1);
        rows.push_back(tasks + m + 1), cols.push_back(col);
        values.push_back(etc.time(t, m) / scale_);
      }
    }
    glp_load_matrix(lp, static_cast<int>(rows.size()) - 1, rows.data(),
                    cols.data(), values.data());
  }

  // The least T with only x_tm where p_tm <= limit allowed (every task
  // must keep one machine).
  StatusOr<Seconds> MinLoad(Seconds limit) {
    glp_prob* lp = lp_.get();
    for (size_t t = 0; t < etc_.tasks; ++t) {
      for (size_t m = 0; m < etc_.machines; ++m) {
        const int col = Column(static_cast<int>(t), static_cast<int>(m));
        if (etc_.time(t, m) <= limit) {
          glp_set_col_bnds(lp, col, GLP_LO, 0, 0);
        } else {
          glp_set_col_bnds(lp, col, GLP_FX, 0, 0);
        }
      }
    }
    glp_smcp parm;
    glp_init_smcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    // glp_adv_basis reports on the terminal whatever msg_lev says.
    const int was_on = glp_term_out(GLP_OFF);
    if (!warm_) glp_adv_basis(lp, 0);
    int rc = glp_simplex(lp, &parm);
    if (rc != 0) {  // a bad basis after the bounds moved: start afresh
      glp_adv_basis(lp, 0);
      rc = glp_simplex(lp, &parm);
    }
    glp_term_out(was_on);
    if (rc != 0 || glp_get_status(lp) != GLP_OPT) {
      return Status::Internal(
          "GLPK's simplex failed on the makespan LP (code " +
          std::to_string(rc) + ", status " +
          std::to_string(glp_get_status(lp)) + ")");
    }
    warm_ = true;
    return glp_get_obj_val(lp) * scale_;
  }

 private:
  int Column(int t, int m) const {
    return 2 + t * static_cast<int>(etc_.machines) + m;
  }

  const EtcMatrix& etc_;
  std::unique_ptr<glp_prob, ProbDeleter> lp_;
  Seconds scale_ = 1;
  bool warm_ = false;
};

}  // namespace

StatusOr<Seconds> LpLowerBound(const EtcMatrix& etc) {
  if (etc.tasks == 0 || etc.machines == 0) return 0.0;
  // T can only cross the distinct times; between two of them the allowed
  // set, hence the LP's least load f, is fixed. The least feasible T in
  // [v_k, v_k+1) is max(v_k, f(v_k)) when f(v_k) < v_k+1. f does not rise
  // with k and v does, so the first such k is found by bisection, from the
  // first v_k that lets every task run somewhere.
  std::vector<Seconds> v = etc.values;
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  Seconds longest_fastest = 0;
  for (size_t t = 0; t < etc.tasks; ++t) {
    Seconds fastest = etc.time(t, 0);
    for (size_t m = 1; m < etc.machines; ++m)
      fastest = std::min(fastest, etc.time(t, m));
    longest_fastest = std::max(longest_fastest, fastest);
  }
  size_t lo = std::lower_bound(v.begin(), v.end(), longest_fastest) - v.begin();
  size_t hi = v.size() - 1;  // holds: nothing is above v.back()
  auto next = [&](size_t k) {
    return k + 1 < v.size() ? v[k + 1] : std::numeric_limits<Seconds>::max();
  };
  AssignmentLp lp(etc);
  StatusOr<Seconds> f_hi = lp.MinLoad(v[hi]);
  if (!f_hi.ok()) return f_hi.status();
  Seconds best = std::max(v[hi], *f_hi);
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    StatusOr<Seconds> f = lp.MinLoad(v[mid]);
    if (!f.ok()) return f.status();
    if (*f < next(mid)) {
      hi = mid, best = std::max(v[mid], *f);
    } else {
      lo = mid + 1;
    }
  }
  return best;
}

}  // namespace gs
