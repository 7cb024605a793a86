// The table of adapter kinds that tests/adapter_conformance_test.cc runs
// its suite against. A new adapter (ssh, slurm, ...) adds one entry in
// adapter_factories.cc; the suite needs nothing else.
#ifndef GSRT_TESTS_SUPPORT_ADAPTER_FACTORIES_H_
#define GSRT_TESTS_SUPPORT_ADAPTER_FACTORIES_H_

#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "adapters/adapter.h"
#include "runtime/base/clock.h"

namespace boost::asio {
class io_context;
}  // namespace boost::asio

namespace gs {

// What a factory gets from the suite for one test.
struct AdapterTestEnv {
  boost::asio::io_context* io = nullptr;
  Clock* clock = nullptr;
  // A fresh, empty directory that the adapter may use as its work dir; it
  // is removed after the test.
  std::string work_dir;
  int slots = 4;
};

struct AdapterFactory {
  // The test name suffix, e.g. "local".
  std::string name;
  // Why the adapter cannot be tested here (testbed missing), or "".
  std::function<std::string()> skip_reason = [] { return std::string(); };
  std::function<std::unique_ptr<Adapter>(const AdapterTestEnv&)> make;
  // Path of gsrt_test_worker as the host sees it.
  std::string worker;
};

const std::vector<AdapterFactory>& AdapterFactories();

// GoogleTest prints a parameter with this (test names, failures) instead of
// its bytes.
inline void PrintTo(const AdapterFactory& factory, std::ostream* os) {
  *os << factory.name;
}

}  // namespace gs

#endif  // GSRT_TESTS_SUPPORT_ADAPTER_FACTORIES_H_
