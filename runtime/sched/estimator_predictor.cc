#include "runtime/sched/estimator_predictor.h"

namespace gs {

void EstimatorPredictor::Observe(OpId op, HostId host, Seconds s) {
  // An op the oracle times is never predicted from what was learnt; its
  // samples would only cost memory (a simulated bag of 100,000 ops, each
  // with a window per host index, took gigabytes).
  if (oracle_ && OracleOp(op) >= 0) return;
  estimator_.Observe(EstimatorOp(op), hosts_[host], s);
  ++changes_;
}

Seconds EstimatorPredictor::ExecTime(OpId op, HostId host) const {
  if (oracle_) {
    int64_t k = OracleOp(op);
    if (k >= 0) return oracle_->Time(k, host);
  }
  return estimator_.Predict(EstimatorOp(op), hosts_[host]);
}

Seconds EstimatorPredictor::Work(OpId op) const {
  if (!oracle_) return -1;
  int64_t k = OracleOp(op);
  return k >= 0 ? oracle_->Work(k) : -1;
}

uint32_t EstimatorPredictor::EstimatorOp(OpId op) const {
  while (op_ids_.size() <= op) {
    op_ids_.push_back(estimator_.InternOp((*ops_)[op_ids_.size()].name));
  }
  return op_ids_[op];
}

int64_t EstimatorPredictor::OracleOp(OpId op) const {
  while (oracle_ops_.size() <= op) {
    oracle_ops_.push_back(oracle_->OpIndex((*ops_)[oracle_ops_.size()].name));
  }
  return oracle_ops_[op];
}

}  // namespace gs
