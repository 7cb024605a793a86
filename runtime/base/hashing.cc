#include "runtime/base/hashing.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>

namespace gs {

namespace {

constexpr uint64_t kGolden = 0x9E3779B97F4A7C15ull;
constexpr uint64_t kMul1 = 0xBF58476D1CE4E5B9ull;
constexpr uint64_t kMul2 = 0x94D049BB133111EBull;
constexpr uint64_t kFnvPrime = 0x00000100000001B3ull;

uint64_t Rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

uint64_t Load64(const unsigned char* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];  // little-endian
  return v;
}

// The splitmix64 finaliser: every input bit reaches every output bit.
uint64_t Avalanche(uint64_t h) {
  h ^= h >> 30;
  h *= kMul1;
  h ^= h >> 27;
  h *= kMul2;
  h ^= h >> 31;
  return h;
}

}  // namespace

ContentHash::ContentHash() {
  for (int i = 0; i < 4; ++i)
    lanes_[i] = kGolden * static_cast<uint64_t>(i + 1);
}

void ContentHash::Stripe(const unsigned char* p) {
  for (int i = 0; i < 4; ++i) {
    lanes_[i] = Rotl(lanes_[i] + Load64(p + 8 * i) * kMul1, 31) * kGolden;
  }
}

void ContentHash::Update(std::string_view data) {
  auto p = reinterpret_cast<const unsigned char*>(data.data());
  size_t n = data.size();
  total_ += n;
  if (tail_size_ > 0) {
    const size_t take = n < kStripe - tail_size_ ? n : kStripe - tail_size_;
    std::memcpy(tail_ + tail_size_, p, take);
    tail_size_ += take;
    p += take;
    n -= take;
    if (tail_size_ < kStripe) return;
    Stripe(tail_);
    tail_size_ = 0;
  }
  for (; n >= kStripe; p += kStripe, n -= kStripe) Stripe(p);
  std::memcpy(tail_, p, n);
  tail_size_ = n;
}

uint64_t ContentHash::Digest() const {
  uint64_t h = total_ * kMul2;
  for (int i = 0; i < 4; ++i) h = Rotl(h ^ Avalanche(lanes_[i]), 27) * kGolden;
  for (size_t i = 0; i < tail_size_; ++i) h = (h ^ tail_[i]) * kFnvPrime;
  return Avalanche(h);
}

uint64_t ContentHash::Of(std::string_view data) {
  ContentHash hash;
  hash.Update(data);
  return hash.Digest();
}

Status ReadFileInPieces(const std::string& path,
                        const std::function<void(std::string_view)>& update) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    const int err = errno;
    if (err == ENOENT || err == ENOTDIR) {
      return Status::NotFound("'" + path + "' does not exist");
    }
    return Status::FromErrno("cannot open '" + path + "'", err);
  }
  constexpr size_t kChunk = 1 << 20;
  std::unique_ptr<char[]> buf(new char[kChunk]);  // not zeroed
  while (true) {
    const ssize_t n = ::read(fd, buf.get(), kChunk);
    if (n == 0) break;
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      ::close(fd);
      return Status::FromErrno("cannot read '" + path + "'", err);
    }
    update(std::string_view(buf.get(), static_cast<size_t>(n)));
  }
  ::close(fd);
  return Status::Ok();
}

Status HashFile(const std::string& path, ContentHash* hash) {
  return ReadFileInPieces(
      path, [hash](std::string_view bytes) { hash->Update(bytes); });
}

std::string ToHex(std::string_view bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex(2 * bytes.size(), '0');
  for (size_t i = 0; i < bytes.size(); ++i) {
    const auto b = static_cast<unsigned char>(bytes[i]);
    hex[2 * i] = kHex[b >> 4];
    hex[2 * i + 1] = kHex[b & 15];
  }
  return hex;
}

}  // namespace gs
