// Splits a fuzzer's input into the pieces a target needs (a selector byte,
// then the rest), so one byte string drives several choices without a
// structured-input library.
#ifndef GSRT_FUZZ_FUZZ_INPUT_H_
#define GSRT_FUZZ_FUZZ_INPUT_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace gs::fuzz {

class FuzzInput {
 public:
  FuzzInput(const uint8_t* data, size_t size)
      : rest_(reinterpret_cast<const char*>(data), size) {}

  // The next byte, 0 when the input is used up.
  uint8_t Byte() {
    if (rest_.empty()) return 0;
    uint8_t b = static_cast<uint8_t>(rest_[0]);
    rest_.remove_prefix(1);
    return b;
  }
  // Up to `n` bytes.
  std::string_view Bytes(size_t n) {
    std::string_view out = rest_.substr(0, n);
    rest_.remove_prefix(out.size());
    return out;
  }
  // Bytes up to the next '\0' (which is consumed), or all that remain.
  std::string_view Field() {
    size_t z = rest_.find('\0');
    std::string_view out = rest_.substr(0, z);
    rest_.remove_prefix(z == std::string_view::npos ? rest_.size() : z + 1);
    return out;
  }
  std::string_view Rest() {
    std::string_view out = rest_;
    rest_ = {};
    return out;
  }
  bool empty() const { return rest_.empty(); }

 private:
  std::string_view rest_;
};

}  // namespace gs::fuzz

#endif  // GSRT_FUZZ_FUZZ_INPUT_H_
