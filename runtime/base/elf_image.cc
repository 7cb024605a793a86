#include "runtime/base/elf_image.h"

#include <elf.h>

#include <cstring>

namespace gs {
namespace {

Status Malformed(std::string_view what) {
  return Status::InvalidArgument("not a readable 64-bit ELF file: " +
                                 std::string(what));
}

bool InFile(std::string_view bytes, uint64_t offset, uint64_t size) {
  return offset <= bytes.size() && bytes.size() - offset >= size;
}

}  // namespace

bool ReadElfString(std::string_view table, uint64_t offset, std::string* out) {
  if (offset >= table.size()) return false;
  size_t end = table.find('\0', offset);
  if (end == std::string_view::npos) return false;
  *out = std::string(table.substr(offset, end - offset));
  return true;
}

StatusOr<ElfImage> ElfImage::Parse(std::string_view bytes) {
  ElfImage image(bytes);
  Elf64_Ehdr header;
  if (!ReadElfAt(bytes, 0, &header) ||
      std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0) {
    return Malformed("no ELF header");
  }
  if (header.e_ident[EI_CLASS] != ELFCLASS64 ||
      header.e_ident[EI_DATA] != ELFDATA2LSB) {
    return Malformed("not 64-bit little-endian");
  }
  if (header.e_shnum != 0 && header.e_shentsize != sizeof(Elf64_Shdr)) {
    return Malformed("unexpected section header size");
  }
  image.machine_ = header.e_machine;
  std::vector<Elf64_Shdr> raw(header.e_shnum);
  for (uint16_t i = 0; i < header.e_shnum; ++i) {
    if (!ReadElfAt(bytes, header.e_shoff + uint64_t{i} * sizeof(Elf64_Shdr),
                   &raw[i])) {
      return Malformed("section headers past the end of the file");
    }
  }
  std::string_view names;
  if (header.e_shstrndx < raw.size()) {
    const Elf64_Shdr& s = raw[header.e_shstrndx];
    if (InFile(bytes, s.sh_offset, s.sh_size)) {
      names = bytes.substr(s.sh_offset, s.sh_size);
    }
  }
  for (const Elf64_Shdr& s : raw) {
    ElfSection section;
    ReadElfString(names, s.sh_name, &section.name);  // unnamed when unreadable
    section.type = s.sh_type;
    section.flags = s.sh_flags;
    section.address = s.sh_addr;
    section.offset = s.sh_offset;
    section.size = s.sh_size;
    section.link = s.sh_link;
    section.info = s.sh_info;
    image.sections_.push_back(std::move(section));
  }
  return image;
}

StatusOr<std::string_view> ElfImage::Contents(const ElfSection& section) const {
  if (section.type == SHT_NOBITS) return std::string_view();
  if (!InFile(bytes_, section.offset, section.size)) {
    return Malformed("section " + section.name + " past the end of the file");
  }
  return bytes_.substr(section.offset, section.size);
}

StatusOr<std::vector<ElfSymbol>> ElfImage::Symbols() const {
  std::vector<ElfSymbol> symbols;
  for (const ElfSection& table : sections_) {
    if (table.type != SHT_SYMTAB) continue;
    if (table.link >= sections_.size()) {
      return Malformed("symbol table without its string table");
    }
    auto entries = Contents(table);
    if (!entries.ok()) return entries.status();
    auto strings = Contents(sections_[table.link]);
    if (!strings.ok()) return strings.status();
    const size_t count = entries->size() / sizeof(Elf64_Sym);
    symbols.reserve(count);
    for (size_t i = 0; i < count; ++i) {
      Elf64_Sym raw;
      ReadElfAt(*entries, i * sizeof(Elf64_Sym), &raw);
      ElfSymbol symbol;
      if (raw.st_name != 0 &&
          !ReadElfString(*strings, raw.st_name, &symbol.name)) {
        return Malformed("symbol name past its string table");
      }
      symbol.value = raw.st_value;
      symbol.size = raw.st_size;
      symbol.type = ELF64_ST_TYPE(raw.st_info);
      symbol.binding = ELF64_ST_BIND(raw.st_info);
      symbol.section = raw.st_shndx;
      symbols.push_back(std::move(symbol));
    }
    break;  // one symbol table per file
  }
  return symbols;
}

StatusOr<std::vector<ElfRelocation>> ElfImage::Relocations(
    const ElfSection& rela) const {
  if (rela.type != SHT_RELA) return Malformed(rela.name + " is not SHT_RELA");
  auto entries = Contents(rela);
  if (!entries.ok()) return entries.status();
  std::vector<ElfRelocation> relocations;
  const size_t count = entries->size() / sizeof(Elf64_Rela);
  relocations.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    Elf64_Rela raw;
    ReadElfAt(*entries, i * sizeof(Elf64_Rela), &raw);
    relocations.push_back(
        {raw.r_offset, static_cast<uint32_t>(ELF64_R_TYPE(raw.r_info)),
         static_cast<uint32_t>(ELF64_R_SYM(raw.r_info)), raw.r_addend});
  }
  return relocations;
}

}  // namespace gs
