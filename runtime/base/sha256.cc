#include "runtime/base/sha256.h"

#include <openssl/evp.h>

#include <cassert>
#include <cerrno>
#include <fstream>
#include <vector>

namespace gs {

struct Sha256::Ctx {
  EVP_MD_CTX* md = EVP_MD_CTX_new();
  ~Ctx() { EVP_MD_CTX_free(md); }
};

Sha256::Sha256() : ctx_(std::make_unique<Ctx>()) {
  const int ok = ctx_->md != nullptr &&
                 EVP_DigestInit_ex(ctx_->md, EVP_sha256(), nullptr) == 1;
  assert(ok && "OpenSSL has no SHA-256");
  (void)ok;
}

Sha256::~Sha256() = default;

void Sha256::Update(std::string_view bytes) {
  EVP_DigestUpdate(ctx_->md, bytes.data(), bytes.size());
}

std::string Sha256::Hex() {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_DigestFinal_ex(ctx_->md, digest, &len);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned int i = 0; i < len; ++i) {
    out += kHex[digest[i] >> 4];
    out += kHex[digest[i] & 15];
  }
  return out;
}

StatusOr<FileDigest> DigestFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::FromErrno("open " + path, errno);
  Sha256 hash;
  FileDigest d;
  std::vector<char> buf(1 << 16);
  while (in) {
    in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
    const auto n = static_cast<size_t>(in.gcount());
    hash.Update(std::string_view(buf.data(), n));
    d.size += n;
  }
  if (in.bad()) return Status::IoError("read " + path + " failed");
  d.sha256 = hash.Hex();
  return d;
}

}  // namespace gs
