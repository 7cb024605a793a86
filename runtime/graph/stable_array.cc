#include "runtime/graph/stable_array.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>

namespace gs {
namespace {

constexpr size_t kFirstCommit = size_t{64} << 10;

size_t RoundUp(size_t n, size_t to) { return (n + to - 1) / to * to; }

}  // namespace

AddressRegion::AddressRegion(size_t min_bytes, size_t max_bytes) {
  min_bytes = RoundUp(std::max<size_t>(min_bytes, 1), kHugePage);
  size_t want = std::max(RoundUp(max_bytes, kHugePage), min_bytes);
  // PROT_NONE: reserved, not committed (no overcommit charge, no RSS).
  // An address-space limit may refuse a large reservation: halve it.
  for (;; want = std::max(RoundUp(want / 2, kHugePage), min_bytes)) {
    size_t size = want + kHugePage;  // room to align the start to 2 MB
    void* p = ::mmap(nullptr, size, PROT_NONE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p != MAP_FAILED) {
      mapping_ = p;
      mapping_size_ = size;
      auto at = reinterpret_cast<uintptr_t>(p);
      base_ = reinterpret_cast<char*>(RoundUp(at, kHugePage));
      reserved_ = want;
      return;
    }
    if (want == min_bytes) throw std::bad_alloc();
  }
}

AddressRegion::~AddressRegion() {
  if (mapping_ != nullptr) ::munmap(mapping_, mapping_size_);
}

size_t AddressRegion::NextCommit(size_t committed, size_t wanted) {
  size_t next = std::max(committed, kFirstCommit);
  while (next < wanted && next < kHugePage) next *= 2;
  if (next < wanted) next = RoundUp(wanted, kHugePage);
  return next;
}

bool AddressRegion::Commit(size_t bytes) {
  if (bytes <= committed_) return true;
  size_t next = NextCommit(committed_, bytes);
  if (next > reserved_) {
    if (bytes > reserved_) return false;
    next = reserved_;
  }
  if (::mprotect(base_ + committed_, next - committed_,
                 PROT_READ | PROT_WRITE) != 0) {
    return false;
  }
  // Whole 2 MB pages: one fault (and one zeroing) per 2 MB instead of 512.
  // Advice only; without transparent huge pages nothing changes.
  size_t huge_from = RoundUp(committed_, kHugePage);
  if (next > huge_from && next - huge_from >= kHugePage) {
    ::madvise(base_ + huge_from, next - huge_from, MADV_HUGEPAGE);
  }
  committed_ = next;
  return true;
}

}  // namespace gs
