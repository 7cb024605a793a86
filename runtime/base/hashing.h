// The project's hashes, one family with one way to hash a file:
//   ContentHash  gsrt-hash64: fast and not cryptographic. Checks that a
//                staged file arrived intact (the agent protocol) and names
//                the content of the master's files in the journal. Defined
//                exactly in docs/agent-protocol.md, so another
//                implementation can reproduce it.
//   Sha256       runtime/base/sha256.h: what hosts compute with
//                `sha256sum`. OpenSSL's, so in a file of its own: code
//                that needs only gsrt-hash64 (gsrt-agent) needs no
//                libcrypto.
// Both take bytes through Update() in any split (the digest depends only
// on the bytes) and count them in size(); HashFile feeds either one a
// file.
#ifndef GSRT_RUNTIME_BASE_HASHING_H_
#define GSRT_RUNTIME_BASE_HASHING_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "runtime/base/status.h"

namespace gs {

// gsrt-hash64: four independent lanes over 8-byte little-endian words keep
// it at several GB/s.
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

// Feeds every byte of the file at `path` to `hash` (its size() then says
// how many). NotFound when there is no such file; other failures to open
// or read are IoErrors naming the path.
Status HashFile(const std::string& path, ContentHash* hash);

// HashFile's reading, for any hash: gives the file's bytes to `update` in
// large pieces, with HashFile's errors.
Status ReadFileInPieces(const std::string& path,
                        const std::function<void(std::string_view)>& update);

// Digests and keys as text: lower-case hex, two digits a byte.
std::string ToHex(std::string_view bytes);
// A lower-case hex digit's value; -1 for any other character.
inline int HexDigitValue(char c) {
  return c >= '0' && c <= '9'   ? c - '0'
         : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                : -1;
}

}  // namespace gs

#endif  // GSRT_RUNTIME_BASE_HASHING_H_
