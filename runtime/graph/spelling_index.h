// The file names a master program has spelt, each to its FileId: the
// lookup every file parameter of every call makes (FileTable::Intern).
//
// Open addressing in one flat array of 32-byte slots, names of up to 24
// bytes stored in the slot itself: a lookup reads one slot (the one the
// hash picks, or a neighbour), where a node-based std::unordered_map reads
// its bucket, the node before, and the node. The hash is a short
// multiply-xorshift over 8-byte words, inlined (names are a program's own,
// not an adversary's).
#ifndef GSRT_RUNTIME_GRAPH_SPELLING_INDEX_H_
#define GSRT_RUNTIME_GRAPH_SPELLING_INDEX_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace gs {

class SpellingIndex {
 public:
  static constexpr uint32_t kNotFound = std::numeric_limits<uint32_t>::max();

  SpellingIndex();

  static uint64_t Hash(std::string_view s) {
    uint64_t h = 0x9e3779b97f4a7c15ull ^ s.size();
    const char* p = s.data();
    size_t n = s.size();
    if (n < 8) {
      h = Mix(h, LoadShort(p, n));
    } else {
      for (; n > 8; n -= 8, p += 8) h = Mix(h, Load8(p));
      h = Mix(h, Load8(s.data() + s.size() - 8));  // the last word
    }
    h ^= h >> 32;
    h *= 0xc4ceb9fe1a85ec53ull;
    return h ^ (h >> 29);
  }

  // The id stored for `name` (whose Hash is `hash`), or kNotFound.
  uint32_t Find(std::string_view name, uint64_t hash) const {
    for (size_t i = hash & mask_;; i = (i + 1) & mask_) {
      const Slot& s = slots_[i];
      if (s.id == kNotFound) return kNotFound;
      if (s.size == name.size() && Equal(Text(s), name.data(), s.size))
        return s.id;
    }
  }
  // Stores `name` -> `id`; `name` must not be stored yet.
  void Insert(std::string_view name, uint64_t hash, uint32_t id);

  size_t size() const { return size_; }
  size_t MemoryUsage() const {
    return slots_.capacity() * sizeof(Slot) + long_names_.capacity();
  }

 private:
  static constexpr size_t kInline = 24;
  struct Slot {
    uint32_t id = kNotFound;
    uint32_t size = 0;
    union {
      char text[kInline] = {};  // size <= kInline
      uint64_t offset;          // into long_names_ otherwise
    };
  };
  static_assert(sizeof(Slot) == 32);

  // Word loads, inlined where memcpy/memcmp of a variable length would be
  // calls: names are short and this is the hot path of every submission.
  static uint64_t Load8(const char* p) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    return w;
  }
  static uint32_t Load4(const char* p) {
    uint32_t w;
    std::memcpy(&w, p, 4);
    return w;
  }
  // The bytes of p[0, n) for n < 8, as one word (overlapping loads).
  static uint64_t LoadShort(const char* p, size_t n) {
    if (n >= 4) return Load4(p) | uint64_t{Load4(p + n - 4)} << 32;
    if (n == 0) return 0;
    return uint64_t{static_cast<uint8_t>(p[0])} |
           uint64_t{static_cast<uint8_t>(p[n / 2])} << 8 |
           uint64_t{static_cast<uint8_t>(p[n - 1])} << 16;
  }
  static bool Equal(const char* a, const char* b, size_t n) {
    if (n < 8) return LoadShort(a, n) == LoadShort(b, n);
    for (size_t i = 0; i + 8 < n; i += 8) {
      if (Load8(a + i) != Load8(b + i)) return false;
    }
    return Load8(a + n - 8) == Load8(b + n - 8);
  }
  static uint64_t Mix(uint64_t h, uint64_t w) {
    h = (h ^ w) * 0xff51afd7ed558ccdull;
    return h ^ (h >> 29);
  }
  const char* Text(const Slot& s) const {
    return s.size <= kInline ? s.text : long_names_.data() + s.offset;
  }
  void Place(const Slot& slot, uint64_t hash);
  void Grow();

  std::vector<Slot> slots_;
  size_t mask_;
  size_t size_ = 0;
  std::string long_names_;  // names longer than kInline, back to back
};

}  // namespace gs

#endif  // GSRT_RUNTIME_GRAPH_SPELLING_INDEX_H_
