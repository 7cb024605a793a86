// Small file helpers for tests.
#ifndef GSRT_TESTS_SUPPORT_TEST_FILES_H_
#define GSRT_TESTS_SUPPORT_TEST_FILES_H_

#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>

namespace gs {

inline void WriteText(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

// The file's content, or nullopt when it does not exist.
inline std::optional<std::string> ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The file's content, or "" when it cannot be read.
inline std::string ReadAll(const std::string& path) {
  return ReadText(path).value_or(std::string());
}

// WriteText, then the file's permissions set to `mode`.
inline void WriteText(const std::string& path, const std::string& text,
                      std::filesystem::perms mode) {
  WriteText(path, text);
  std::filesystem::permissions(path, mode);
}

inline bool Exists(const std::string& path) {
  std::error_code ec;
  return std::filesystem::exists(path, ec);
}

}  // namespace gs

#endif  // GSRT_TESTS_SUPPORT_TEST_FILES_H_
