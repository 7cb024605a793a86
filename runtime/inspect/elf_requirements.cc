#include "runtime/inspect/elf_requirements.h"

#include <elf.h>

#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

#include "runtime/base/elf_image.h"

namespace gs {
namespace {

Status Malformed(std::string_view what) {
  return Status::InvalidArgument("not a readable 64-bit ELF file: " +
                                 std::string(what));
}

// Walks the SHT_GNU_verneed section's bytes `needs` (`count` entries, their
// names in `strings`).
StatusOr<VersionNeeds> ReadNeeds(std::string_view needs, uint32_t count,
                                 std::string_view strings) {
  VersionNeeds result;
  uint64_t entry = 0;
  // The count bounds the walk, which ends any cycle.
  for (uint32_t i = 0; i < count; ++i) {
    Elf64_Verneed need;
    std::string file;
    if (!ReadElfAt(needs, entry, &need) ||
        !ReadElfString(strings, need.vn_file, &file)) {
      return Malformed("version need past the end of the file");
    }
    uint64_t aux = entry + need.vn_aux;
    for (uint16_t j = 0; j < need.vn_cnt; ++j) {
      Elf64_Vernaux version;
      std::string name;
      if (!ReadElfAt(needs, aux, &version) ||
          !ReadElfString(strings, version.vna_name, &name)) {
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
  auto image = ElfImage::Parse(bytes);
  if (!image.ok()) return image.status();
  const std::vector<ElfSection>& sections = image->sections();
  for (const ElfSection& section : sections) {
    if (section.type != SHT_GNU_verneed) continue;
    if (section.link >= sections.size()) {
      return Malformed("version needs without their string table");
    }
    auto needs = image->Contents(section);
    auto strings = image->Contents(sections[section.link]);
    if (!needs.ok()) return needs.status();
    if (!strings.ok()) return strings.status();
    return ReadNeeds(*needs, section.info, *strings);
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
