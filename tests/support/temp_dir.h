// A fresh directory under $TMPDIR (or /tmp) for one test, removed with
// everything in it when the object goes away.
#ifndef GSRT_TESTS_SUPPORT_TEMP_DIR_H_
#define GSRT_TESTS_SUPPORT_TEMP_DIR_H_

#include <stdlib.h>

#include <cassert>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace gs {

class TempDir {
 public:
  TempDir() {
    const char* base = std::getenv("TMPDIR");
    std::string tmpl =
        std::string(base && *base ? base : "/tmp") + "/gsrt-test-XXXXXX";
    char* made = ::mkdtemp(tmpl.data());
    assert(made != nullptr && "mkdtemp failed: is $TMPDIR writable?");
    path_ = made;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }
  // path() + "/" + name
  std::string operator/(const std::string& name) const {
    return path_ + "/" + name;
  }

 private:
  std::string path_;
};

}  // namespace gs

#endif  // GSRT_TESTS_SUPPORT_TEMP_DIR_H_
