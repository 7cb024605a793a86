#include "runtime/graph/spelling_index.h"

namespace gs {

SpellingIndex::SpellingIndex() : slots_(64), mask_(63) {}

void SpellingIndex::Insert(std::string_view name, uint64_t hash, uint32_t id) {
  // At most half full: probes stay short.
  if (2 * (size_ + 1) > slots_.size()) Grow();
  Slot slot;
  slot.id = id;
  slot.size = static_cast<uint32_t>(name.size());
  if (name.size() <= kInline) {
    std::memcpy(slot.text, name.data(), name.size());
  } else {
    slot.offset = long_names_.size();
    long_names_.append(name);
  }
  Place(slot, hash);
  ++size_;
}

void SpellingIndex::Place(const Slot& slot, uint64_t hash) {
  size_t i = hash & mask_;
  while (slots_[i].id != kNotFound) i = (i + 1) & mask_;
  slots_[i] = slot;
}

void SpellingIndex::Grow() {
  std::vector<Slot> old(slots_.size() * 2);
  old.swap(slots_);
  mask_ = slots_.size() - 1;
  for (const Slot& s : old) {
    if (s.id != kNotFound) Place(s, Hash(std::string_view(Text(s), s.size)));
  }
}

}  // namespace gs
