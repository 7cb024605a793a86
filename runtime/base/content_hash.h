// gsrt-hash64: the 64-bit content hash that checks a staged file arrived
// intact (not a defence against tampering: it is not cryptographic). Four
// independent lanes over 8-byte little-endian words keep it at several
// GB/s; the exact definition is in docs/agent-protocol.md so another
// implementation can reproduce it. The digest depends only on the bytes,
// never on how they were split across Update() calls.
#ifndef GSRT_RUNTIME_BASE_CONTENT_HASH_H_
#define GSRT_RUNTIME_BASE_CONTENT_HASH_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace gs {

class ContentHash {
 public:
  ContentHash();

  void Update(std::string_view data);

  // The hash of every byte given so far; the state is unchanged, so more
  // Update() calls may follow.
  uint64_t Digest() const;

  // Bytes given so far.
  uint64_t size() const { return total_; }

  static uint64_t Of(std::string_view data);

 private:
  static constexpr size_t kStripe = 32;
  void Stripe(const unsigned char* p);

  uint64_t lanes_[4];
  unsigned char tail_[kStripe];
  size_t tail_size_ = 0;
  uint64_t total_ = 0;
};

}  // namespace gs

#endif  // GSRT_RUNTIME_BASE_CONTENT_HASH_H_
