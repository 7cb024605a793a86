#include "runtime/base/worker_failure.h"

#include <algorithm>

namespace gs {

namespace {

// Versioned so a later format can be told apart; a normal result file is
// encoded scalars, which never start with '#'.
constexpr std::string_view kThrownMarker = "#gsrt-threw 1\n";

bool IsControl(unsigned char c) { return c < 0x20 || c == 0x7f; }

}  // namespace

std::string OneLine(std::string_view text, size_t max_bytes) {
  std::string out;
  out.reserve(std::min(text.size(), max_bytes + 3));
  for (unsigned char c : text) {
    if (IsControl(c)) {
      if (!out.empty() && out.back() != ' ') out += ' ';
    } else {
      out += static_cast<char>(c);
    }
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  if (out.size() <= max_bytes) return out;
  size_t cut = max_bytes;
  // Not in the middle of a multi-byte character (continuation: 10xxxxxx).
  while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) {
    --cut;
  }
  out.resize(cut);
  return out + "...";
}

std::string EncodeThrown(std::string_view what) {
  std::string message = OneLine(what, kMaxThrownMessageBytes);
  if (message.empty()) message = "(empty what())";
  return std::string(kThrownMarker) + message + "\n";
}

std::optional<std::string> DecodeThrown(std::string_view file) {
  if (file.substr(0, kThrownMarker.size()) != kThrownMarker) {
    return std::nullopt;
  }
  // Bounded again: the file is another program's output.
  return OneLine(file.substr(kThrownMarker.size()), kMaxThrownMessageBytes);
}

std::string ThrownError(std::string_view operation, std::string_view what) {
  return std::string(operation) + " threw: " + std::string(what);
}

}  // namespace gs
