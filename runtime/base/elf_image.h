// A read-only view of a 64-bit little-endian ELF file's sections, symbol
// table and relocations: what the identity of a function's code
// (function_identity.h) and the runtime needs of a program
// (elf_requirements.h) are read from. Every read is bounds-checked; bytes
// that are not such a file, or a truncated one, give kInvalidArgument.
#ifndef GSRT_RUNTIME_BASE_ELF_IMAGE_H_
#define GSRT_RUNTIME_BASE_ELF_IMAGE_H_

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/base/status.h"

namespace gs {

struct ElfSection {
  std::string name;
  uint32_t type = 0;   // SHT_*
  uint64_t flags = 0;  // SHF_*
  uint64_t address = 0;
  uint64_t offset = 0;  // in the file
  uint64_t size = 0;
  uint32_t link = 0;
  uint32_t info = 0;
};

struct ElfSymbol {
  std::string name;
  uint64_t value = 0;
  uint64_t size = 0;
  uint8_t type = 0;      // STT_*
  uint8_t binding = 0;   // STB_*
  uint16_t section = 0;  // SHN_UNDEF, an index, or SHN_ABS and the like
};

struct ElfRelocation {
  uint64_t offset = 0;  // where it applies (an address, in an executable)
  uint32_t type = 0;    // R_<machine>_*
  uint32_t symbol = 0;  // index into Symbols()
  int64_t addend = 0;
};

// Bounds-checked reads of an ELF file's bytes: false when `out` does not
// fit (a T at `offset`; a NUL-terminated string at `offset` of `table`).
template <typename T>
bool ReadElfAt(std::string_view bytes, uint64_t offset, T* out) {
  if (offset > bytes.size() || bytes.size() - offset < sizeof(T)) return false;
  std::memcpy(out, bytes.data() + offset, sizeof(T));
  return true;
}
bool ReadElfString(std::string_view table, uint64_t offset, std::string* out);

class ElfImage {
 public:
  // `bytes` must outlive the image and what it returns.
  static StatusOr<ElfImage> Parse(std::string_view bytes);

  uint16_t machine() const { return machine_; }
  const std::vector<ElfSection>& sections() const { return sections_; }
  // The section's bytes; empty for SHT_NOBITS (.bss).
  StatusOr<std::string_view> Contents(const ElfSection& section) const;
  // The static symbol table (.symtab), index 0 the null symbol; empty
  // when the file is stripped.
  StatusOr<std::vector<ElfSymbol>> Symbols() const;
  // The entries of an SHT_RELA section.
  StatusOr<std::vector<ElfRelocation>> Relocations(
      const ElfSection& rela) const;

 private:
  explicit ElfImage(std::string_view bytes) : bytes_(bytes) {}

  std::string_view bytes_;
  uint16_t machine_ = 0;
  std::vector<ElfSection> sections_;
};

}  // namespace gs

#endif  // GSRT_RUNTIME_BASE_ELF_IMAGE_H_
