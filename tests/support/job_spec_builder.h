// Short spellings of JobSpecs for tests:
//   JobSpec spec = TestJob(7, worker, "copy", {FileIn(a), FileOut(b)});
#ifndef GSRT_TESTS_SUPPORT_JOB_SPEC_BUILDER_H_
#define GSRT_TESTS_SUPPORT_JOB_SPEC_BUILDER_H_

#include <string>
#include <utility>
#include <vector>

#include "runtime/jobs/job.h"

namespace gs {

inline JobParam Scalar(std::string value) {
  JobParam p;
  p.kind = JobParam::Kind::kScalar;
  p.value = std::move(value);
  return p;
}

inline JobParam OutScalar() {
  JobParam p;
  p.kind = JobParam::Kind::kOutScalar;
  return p;
}

inline JobParam FileIn(std::string source) {
  JobParam p;
  p.kind = JobParam::Kind::kFileIn;
  p.source = std::move(source);
  return p;
}

inline JobParam FileOut(std::string dest) {
  JobParam p;
  p.kind = JobParam::Kind::kFileOut;
  p.dest = std::move(dest);
  return p;
}

inline JobParam FileInOut(std::string source, std::string dest) {
  JobParam p;
  p.kind = JobParam::Kind::kFileInOut;
  p.source = std::move(source);
  p.dest = std::move(dest);
  return p;
}

inline JobSpec TestJob(JobId id, std::string worker, std::string operation,
                       std::vector<JobParam> params = {}, Seconds timeout = 0) {
  JobSpec spec;
  spec.id = id;
  spec.task = static_cast<TaskId>(id);
  spec.operation = std::move(operation);
  spec.params = std::move(params);
  spec.worker = std::move(worker);
  spec.timeout = timeout;
  return spec;
}

}  // namespace gs

#endif  // GSRT_TESTS_SUPPORT_JOB_SPEC_BUILDER_H_
