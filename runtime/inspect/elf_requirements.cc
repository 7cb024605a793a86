#include "runtime/inspect/elf_requirements.h"

#include <elf.h>

#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

namespace gs {
namespace {

// A bounds-checked view of the image: every read says whether it fits.
class Image {
 public:
  explicit Image(std::string_view bytes) : bytes_(bytes) {}
  template <typename T>
  bool Read(uint64_t offset, T* out) const {
    if (offset > bytes_.size() || bytes_.size() - offset < sizeof(T)) {
      return false;
    }
    std::memcpy(out, bytes_.data() + offset, sizeof(T));
    return true;
  }
  // The NUL-terminated string at `offset`; false past the end.
  bool String(uint64_t offset, std::string* out) const {
    if (offset >= bytes_.size()) return false;
    size_t end = bytes_.find('\0', offset);
    if (end == std::string_view::npos) return false;
    *out = std::string(bytes_.substr(offset, end - offset));
    return true;
  }

 private:
  std::string_view bytes_;
};

Status Malformed(std::string_view what) {
  return Status::InvalidArgument("not a readable 64-bit ELF file: " +
                                 std::string(what));
}

// Walks the SHT_GNU_verneed section `needs` (its names in section `strings`).
StatusOr<VersionNeeds> ReadNeeds(const Image& image, const Elf64_Shdr& needs,
                                 const Elf64_Shdr& strings) {
  VersionNeeds result;
  uint64_t entry = needs.sh_offset;
  // sh_info is the number of entries; bounding by it ends any cycle.
  for (uint32_t i = 0; i < needs.sh_info; ++i) {
    Elf64_Verneed need;
    std::string file;
    if (!image.Read(entry, &need) ||
        !image.String(strings.sh_offset + need.vn_file, &file)) {
      return Malformed("version need past the end of the file");
    }
    uint64_t aux = entry + need.vn_aux;
    for (uint16_t j = 0; j < need.vn_cnt; ++j) {
      Elf64_Vernaux version;
      std::string name;
      if (!image.Read(aux, &version) ||
          !image.String(strings.sh_offset + version.vna_name, &name)) {
        return Malformed("version name past the end of the file");
      }
      result[file].insert(name);
      aux += version.vna_next;
    }
    if (need.vn_next == 0) break;
    entry += need.vn_next;
  }
  return result;
}

// "2.34" -> {2, 34}; non-numbers compare as 0.
std::vector<long> Numbers(std::string_view dotted) {
  std::vector<long> numbers;
  std::istringstream in{std::string(dotted)};
  std::string part;
  while (std::getline(in, part, '.')) {
    numbers.push_back(std::strtol(part.c_str(), nullptr, 10));
  }
  return numbers;
}

// The versions needed from the library whose file name starts with `stem`.
std::set<std::string> NeedsOf(const VersionNeeds& needs,
                              std::string_view stem) {
  std::set<std::string> all;
  for (const auto& [file, versions] : needs) {
    if (file.rfind(stem, 0) == 0) all.insert(versions.begin(), versions.end());
  }
  return all;
}

}  // namespace

StatusOr<VersionNeeds> ReadVersionNeeds(std::string_view bytes) {
  Image image(bytes);
  Elf64_Ehdr header;
  if (!image.Read(0, &header) ||
      std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0) {
    return Malformed("no ELF header");
  }
  if (header.e_ident[EI_CLASS] != ELFCLASS64 ||
      header.e_ident[EI_DATA] != ELFDATA2LSB) {
    return Malformed("not 64-bit little-endian");
  }
  if (header.e_shentsize != sizeof(Elf64_Shdr)) {
    return Malformed("unexpected section header size");
  }
  for (uint16_t i = 0; i < header.e_shnum; ++i) {
    Elf64_Shdr section;
    if (!image.Read(header.e_shoff + uint64_t{i} * sizeof(Elf64_Shdr),
                    &section)) {
      return Malformed("section headers past the end of the file");
    }
    if (section.sh_type != SHT_GNU_verneed) continue;
    Elf64_Shdr strings;
    if (section.sh_link >= header.e_shnum ||
        !image.Read(
            header.e_shoff + uint64_t{section.sh_link} * sizeof(Elf64_Shdr),
            &strings)) {
      return Malformed("version needs without their string table");
    }
    return ReadNeeds(image, section, strings);
  }
  return VersionNeeds{};
}

std::string HighestVersion(const std::set<std::string>& versions,
                           std::string_view prefix) {
  std::string best;
  std::vector<long> best_numbers;
  for (const std::string& version : versions) {
    if (version.rfind(prefix, 0) != 0) continue;
    std::string_view rest = std::string_view(version).substr(prefix.size());
    if (rest.empty() || rest[0] < '0' || rest[0] > '9') continue;
    std::vector<long> numbers = Numbers(rest);
    if (best.empty() || numbers > best_numbers) {
      best = version;
      best_numbers = std::move(numbers);
    }
  }
  return best;
}

std::string DescribeRuntimeNeeds(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "cannot be read: " + std::string(std::strerror(errno));
  std::ostringstream bytes;
  bytes << in.rdbuf();
  StatusOr<VersionNeeds> needs = ReadVersionNeeds(bytes.str());
  if (!needs.ok()) return needs.status().message();
  std::string glibc = HighestVersion(NeedsOf(*needs, "libc.so"), "GLIBC_");
  std::string cxx = HighestVersion(NeedsOf(*needs, "libstdc++.so"), "GLIBCXX_");
  std::string line = glibc.empty()
                         ? "no versioned glibc symbol"
                         : "glibc >= " + glibc.substr(std::strlen("GLIBC_"));
  line += cxx.empty() ? ", no libstdc++"
                      : ", libstdc++ >= " + cxx.substr(std::strlen("GLIBCXX_"));
  return line;
}

}  // namespace gs
