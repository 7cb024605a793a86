#include "runtime/base/sha256.h"

#include <openssl/evp.h>

#include <cassert>

namespace gs {
namespace {

// Fetched once: OpenSSL 3 looks the algorithm up again on every
// EVP_DigestInit_ex given EVP_sha256() (~1 us, as much as hashing a short
// text), but not given an algorithm it fetched.
const EVP_MD* Sha256Algorithm() {
  static EVP_MD* const md = EVP_MD_fetch(nullptr, "SHA256", nullptr);
  return md != nullptr ? md : EVP_sha256();
}

}  // namespace

struct Sha256::Ctx {
  EVP_MD_CTX* md = EVP_MD_CTX_new();
  ~Ctx() { EVP_MD_CTX_free(md); }
};

Sha256::Sha256() : ctx_(std::make_unique<Ctx>()) {
  const int ok = ctx_->md != nullptr &&
                 EVP_DigestInit_ex(ctx_->md, Sha256Algorithm(), nullptr) == 1;
  assert(ok && "OpenSSL has no SHA-256");
  (void)ok;
}

Sha256::~Sha256() = default;

void Sha256::Update(std::string_view bytes) {
  EVP_DigestUpdate(ctx_->md, bytes.data(), bytes.size());
  total_ += bytes.size();
}

std::string Sha256::Hex() {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_DigestFinal_ex(ctx_->md, digest, &len);
  return ToHex(std::string_view(reinterpret_cast<const char*>(digest), len));
}

std::string Sha256::HexOf(std::string_view bytes) {
  Sha256 hash;
  hash.Update(bytes);
  return hash.Hex();
}

Status HashFile(const std::string& path, Sha256* hash) {
  return ReadFileInPieces(
      path, [hash](std::string_view bytes) { hash->Update(bytes); });
}

}  // namespace gs
