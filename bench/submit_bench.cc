// Benchmark (a): the cost of submitting tasks, the master's side of every
// call: dependency analysis with renaming and graph insertion, with no
// engine thread running. 1,000,000 calls of an operation with three file
// parameters (inout C[i][j], in A[i][k], in B[k][j]; a blocked matrix
// multiply's access pattern over 100 x 100 x 100 blocks).
//
// Prints nanoseconds and heap bytes per task, and as a baseline measured in
// the same run, the cost of three hash-map lookups of the same names per
// task (the least any name-based analysis must do).
//
//   submit_bench [tasks per side (default 100)]
#include <malloc.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unordered_map>
#include <vector>

#include "gs/gs_abi.h"
#include "runtime/engine/engine.h"

namespace {

const gs_param_desc kParams[] = {{"c", GS_TYPE_FILE, GS_DIR_INOUT},
                                 {"a", GS_TYPE_FILE, GS_DIR_IN},
                                 {"b", GS_TYPE_FILE, GS_DIR_IN}};
const gs_operation kMultiply = {"multiply", GS_TYPE_VOID, 3, kParams};

size_t HeapInUse() {
  struct mallinfo2 mi = mallinfo2();
  return mi.uordblks + mi.hblkhd;
}

double Seconds(std::chrono::steady_clock::time_point a,
               std::chrono::steady_clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

}  // namespace

int main(int argc, char** argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 100;
  if (n < 1) {
    std::fprintf(stderr, "usage: %s [tasks per side >= 1]\n", argv[0]);
    return 2;
  }
  const long tasks = static_cast<long>(n) * n * n;
  auto name = [](char m, int i, int j) {
    return std::string(1, m) + "_" + std::to_string(i) + "_" +
           std::to_string(j) + ".dat";
  };
  std::vector<std::string> a, b, c;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      a.push_back(name('A', i, j));
      b.push_back(name('B', i, j));
      c.push_back(name('C', i, j));
    }

  // Baseline: three lookups of the same names per task.
  std::unordered_map<std::string_view, int> ids;
  for (auto* v : {&a, &b, &c})
    for (const std::string& s : *v)
      ids.emplace(s, static_cast<int>(ids.size()));
  long checksum = 0;
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        checksum += ids.find(c[i * n + j])->second +
                    ids.find(a[i * n + k])->second +
                    ids.find(b[k * n + j])->second;
  auto t1 = std::chrono::steady_clock::now();
  double lookup_ns = Seconds(t0, t1) * 1e9 / tasks;

  gs::EngineOptions options;
  options.cwd = "/bench";
  options.work_dir = "/bench/.gsrt";
  gs::Engine engine(options);  // not started: submission only
  size_t heap_before = HeapInUse();
  gs_arg args[3] = {};
  auto t2 = std::chrono::steady_clock::now();
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k) {
        args[0].str = c[i * n + j].c_str();
        args[1].str = a[i * n + k].c_str();
        args[2].str = b[k * n + j].c_str();
        engine.Submit(&kMultiply, args);
      }
  auto t3 = std::chrono::steady_clock::now();
  size_t heap_after = HeapInUse();
  double submit_ns = Seconds(t2, t3) * 1e9 / tasks;
  double bytes = static_cast<double>(heap_after - heap_before) / tasks;

  std::printf("submit_bench: %ld tasks, 3 file parameters each (%zu files)\n",
              tasks, engine.graph().files().size());
  std::printf("  submission:            %8.1f ns/task  (goal < 1000)\n",
              submit_ns);
  std::printf("  heap:                  %8.1f B/task   (goal < 512)\n", bytes);
  std::printf("  baseline 3 lookups:    %8.1f ns/task\n", lookup_ns);
  std::printf("  ratio submission/baseline: %.2f  (checksum %ld)\n",
              submit_ns / lookup_ns, checksum % 7);
  return 0;
}
