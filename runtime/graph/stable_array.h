// A growable array for the task graph's per-task tables (tasks, file
// accesses, versions), which only ever grow while the master submits. It
// reserves address space once, makes it writable in steps as it grows, and
// asks for transparent huge pages beyond the first 2 MB; why not a
// std::vector: docs/algorithms.md, "Stable arrays".
//
// Elements keep their addresses while the array grows, except in the rare
// case that the reservation fills (a quarter of a billion elements, or
// less under an address-space limit, `ulimit -v`): then they move to a
// larger one, as in a vector.
#ifndef GSRT_RUNTIME_GRAPH_STABLE_ARRAY_H_
#define GSRT_RUNTIME_GRAPH_STABLE_ARRAY_H_

#include <cstddef>
#include <cstdint>
#include <new>
#include <type_traits>
#include <utility>

namespace gs {

// Address space reserved with no access: `Commit` makes a prefix writable.
class AddressRegion {
 public:
  AddressRegion() = default;
  // Reserves up to `max_bytes` (less if the address space is limited, at
  // least `min_bytes`); throws std::bad_alloc when even that fails.
  AddressRegion(size_t min_bytes, size_t max_bytes);
  ~AddressRegion();
  AddressRegion(AddressRegion&& other) noexcept { Swap(other); }
  AddressRegion& operator=(AddressRegion&& other) noexcept {
    AddressRegion(std::move(other)).Swap(*this);
    return *this;
  }

  // Makes at least the first `bytes` writable (false if the reservation is
  // too small or the kernel refuses); grows in steps, never shrinks.
  bool Commit(size_t bytes);

  char* data() const { return base_; }
  size_t reserved() const { return reserved_; }
  size_t committed() const { return committed_; }

  // The step after `committed` bytes: doubling from 64 KB up to 2 MB, then
  // whole 2 MB pages. Pure, for the tests.
  static size_t NextCommit(size_t committed, size_t wanted);

  static constexpr size_t kHugePage = size_t{2} << 20;

 private:
  void Swap(AddressRegion& other) noexcept {
    std::swap(base_, other.base_);
    std::swap(mapping_, other.mapping_);
    std::swap(mapping_size_, other.mapping_size_);
    std::swap(reserved_, other.reserved_);
    std::swap(committed_, other.committed_);
  }

  char* base_ = nullptr;  // 2 MB aligned, inside the mapping
  void* mapping_ = nullptr;
  size_t mapping_size_ = 0;
  size_t reserved_ = 0;
  size_t committed_ = 0;
};

template <class T>
class StableArray {
 public:
  // Address space for `reserve` elements is reserved at the first append
  // (2^28: 8 GB of 32-byte tasks, which costs nothing until used); past
  // it the array moves to a reservation twice as large.
  explicit StableArray(size_t reserve = size_t{1} << 28) : reserve_(reserve) {}
  ~StableArray() { Destroy(); }
  StableArray(const StableArray&) = delete;
  StableArray& operator=(const StableArray&) = delete;

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // Elements that fit in the committed memory.
  size_t capacity() const { return region_.committed() / sizeof(T); }

  T* data() { return reinterpret_cast<T*>(region_.data()); }
  const T* data() const { return reinterpret_cast<const T*>(region_.data()); }
  T& operator[](size_t i) { return data()[i]; }
  const T& operator[](size_t i) const { return data()[i]; }
  T* begin() { return data(); }
  T* end() { return data() + size_; }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size_; }
  T& back() { return data()[size_ - 1]; }

  template <class... Args>
  T& emplace_back(Args&&... args) {
    if (size_ == capacity()) Grow(size_ + 1);
    T* slot = ::new (data() + size_) T(std::forward<Args>(args)...);
    ++size_;
    return *slot;
  }
  void push_back(const T& value) { emplace_back(value); }

  // Appends value-initialised elements up to `n`, or destroys down to it.
  void resize(size_t n) {
    if (n > capacity()) Grow(n);
    for (; size_ < n; ++size_) ::new (data() + size_) T();
    for (; size_ > n; --size_) data()[size_ - 1].~T();
  }

 private:
  void Grow(size_t n) {
    if (region_.data() == nullptr) {
      region_ = AddressRegion(n * sizeof(T), reserve_ * sizeof(T));
    }
    if (region_.Commit(n * sizeof(T))) return;
    // The reservation is full: move to one twice as large.
    AddressRegion bigger(2 * n * sizeof(T), 2 * region_.reserved());
    if (!bigger.Commit(n * sizeof(T))) throw std::bad_alloc();
    T* to = reinterpret_cast<T*>(bigger.data());
    for (size_t i = 0; i < size_; ++i) {
      ::new (to + i) T(std::move(data()[i]));
      data()[i].~T();
    }
    region_ = std::move(bigger);
  }
  void Destroy() {
    if constexpr (!std::is_trivially_destructible_v<T>) {
      for (size_t i = 0; i < size_; ++i) data()[i].~T();
    }
    size_ = 0;
  }

  size_t reserve_;
  size_t size_ = 0;
  AddressRegion region_;
};

}  // namespace gs

#endif  // GSRT_RUNTIME_GRAPH_STABLE_ARRAY_H_
