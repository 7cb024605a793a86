#include "runtime/master/function_identity.h"

#include <elf.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "runtime/base/elf_image.h"
#include "runtime/base/sha256.h"

namespace gs {
// Not in an anonymous namespace: FunctionIdentities::Impl holds them.
namespace function_identity_internal {

// The bytes a relocation fills in, and whether it is PC-relative.
struct Field {
  int size = 0;
  bool pc_relative = false;
};

// x86-64 relocation types (the System V psABI's table); false for a type
// this reader does not know.
bool FieldOf(uint32_t type, Field* field) {
  switch (type) {
    case R_X86_64_NONE:
    case R_X86_64_TLSDESC_CALL:
      *field = {0, false};
      return true;
    case R_X86_64_64:
    case R_X86_64_DTPOFF64:
    case R_X86_64_TPOFF64:
    case R_X86_64_GOTOFF64:
    case R_X86_64_SIZE64:
      *field = {8, false};
      return true;
    case R_X86_64_PC64:
      *field = {8, true};
      return true;
    case R_X86_64_GOT32:
    case R_X86_64_32:
    case R_X86_64_32S:
    case R_X86_64_DTPOFF32:
    case R_X86_64_TPOFF32:
    case R_X86_64_SIZE32:
      *field = {4, false};
      return true;
    case R_X86_64_PC32:
    case R_X86_64_PLT32:
    case R_X86_64_GOTPCREL:
    case R_X86_64_TLSGD:
    case R_X86_64_TLSLD:
    case R_X86_64_GOTTPOFF:
    case R_X86_64_GOTPC32:
    case R_X86_64_GOTPC32_TLSDESC:
    case R_X86_64_GOTPCRELX:
    case R_X86_64_REX_GOTPCRELX:
      *field = {4, true};
      return true;
    case R_X86_64_16:
      *field = {2, false};
      return true;
    case R_X86_64_PC16:
      *field = {2, true};
      return true;
    case R_X86_64_8:
      *field = {1, false};
      return true;
    case R_X86_64_PC8:
      *field = {1, true};
      return true;
    default:
      return false;
  }
}

// A named function or object: [start, end) in section `section`.
struct Unit {
  uint64_t start;
  uint64_t end;
  std::string name;
  uint16_t section;
  bool code;
};

struct Relocation {
  uint64_t at;
  uint32_t type;
  uint32_t symbol;
  int64_t addend;
  Field field;
};

}  // namespace function_identity_internal

using function_identity_internal::Field;
using function_identity_internal::FieldOf;
using function_identity_internal::Relocation;
using function_identity_internal::Unit;

struct FunctionIdentities::Impl {
  std::string bytes;
  std::vector<ElfSection> sections;
  std::vector<ElfSymbol> symbols;
  std::vector<Unit> units;        // by start
  std::vector<uint64_t> max_end;  // max_end[i]: the largest end of units[0..i]
  std::vector<int> unit_of_symbol;                // symbol index -> unit, or -1
  std::unordered_map<uint64_t, int> function_at;  // a function's first byte
  std::multimap<std::string, int> units_named;
  std::vector<Relocation> relocations;  // by address
  std::vector<uint64_t> cuts;           // where anonymous data may begin
  size_t last_pieces = 0;

  Status Load();
  int SectionAt(uint64_t address) const;
  std::string_view BytesOf(int section, uint64_t start, uint64_t end) const;
  // Units overlapping [lo, hi].
  std::vector<int> UnitsOver(uint64_t lo, uint64_t hi) const;
  // The anonymous piece holding `address`: [start, end); false when the
  // address is in no allocated section or inside a unit.
  bool PieceAt(uint64_t address, uint64_t* start, uint64_t* end) const;
  // The address range a relocation refers to, when it refers by address.
  void TargetRange(const Relocation& r, uint64_t* lo, uint64_t* hi) const;
};

namespace {

bool Allocated(const ElfSection& s) { return (s.flags & SHF_ALLOC) != 0; }

}  // namespace

int FunctionIdentities::Impl::SectionAt(uint64_t address) const {
  for (size_t i = 0; i < sections.size(); ++i) {
    const ElfSection& s = sections[i];
    if (Allocated(s) && s.size > 0 && address >= s.address &&
        address < s.address + s.size) {
      return static_cast<int>(i);
    }
  }
  return -1;
}

std::string_view FunctionIdentities::Impl::BytesOf(int section, uint64_t start,
                                                   uint64_t end) const {
  const ElfSection& s = sections[section];
  if (s.type == SHT_NOBITS) return {};
  end = std::min(end, s.address + s.size);
  if (start < s.address || start >= end) return {};
  const uint64_t offset = s.offset + (start - s.address);
  if (offset > bytes.size() || bytes.size() - offset < end - start) return {};
  return std::string_view(bytes).substr(offset, end - start);
}

std::vector<int> FunctionIdentities::Impl::UnitsOver(uint64_t lo,
                                                     uint64_t hi) const {
  std::vector<int> found;
  auto past =
      std::upper_bound(units.begin(), units.end(), hi,
                       [](uint64_t a, const Unit& u) { return a < u.start; });
  for (int i = static_cast<int>(past - units.begin()) - 1;
       i >= 0 && max_end[i] > lo; --i) {
    if (units[i].end > lo) found.push_back(i);
  }
  return found;
}

bool FunctionIdentities::Impl::PieceAt(uint64_t address, uint64_t* start,
                                       uint64_t* end) const {
  const int section = SectionAt(address);
  if (section < 0 || !UnitsOver(address, address).empty()) return false;
  auto next = std::upper_bound(cuts.begin(), cuts.end(), address);
  *start = next == cuts.begin() ? sections[section].address : *(next - 1);
  *end = next == cuts.end() ? sections[section].address + sections[section].size
                            : *next;
  *start = std::max(*start, sections[section].address);
  *end = std::min(*end, sections[section].address + sections[section].size);
  return *start <= address && address < *end;
}

void FunctionIdentities::Impl::TargetRange(const Relocation& r, uint64_t* lo,
                                           uint64_t* hi) const {
  // A PC-relative field's addend is the target less the distance from the
  // field to the instruction's end: 4 bytes, or up to 8 when an immediate
  // follows. The range covers both; taking more than the target is safe.
  const uint64_t base = symbols[r.symbol].value + r.addend;
  *lo = r.field.pc_relative ? base + r.field.size : base;
  *hi = r.field.pc_relative ? *lo + 4 : *lo;
}

Status FunctionIdentities::Impl::Load() {
  auto image = ElfImage::Parse(bytes);
  if (!image.ok()) return image.status();
  if (image->machine() != EM_X86_64) {
    return Status::FailedPrecondition(
        "the worker is not an x86-64 program (function identities are read "
        "for x86-64 only)");
  }
  sections = image->sections();
  auto syms = image->Symbols();
  if (!syms.ok()) return syms.status();
  symbols = std::move(*syms);
  if (symbols.empty()) {
    return Status::FailedPrecondition("the worker is stripped (no symbols)");
  }
  int symtab = -1;
  for (size_t i = 0; i < sections.size(); ++i) {
    if (sections[i].type == SHT_SYMTAB) symtab = static_cast<int>(i);
  }
  // Units: every defined function and object of an allocated section;
  // aliases (one range, several names) count once, under the first name
  // in a fixed order.
  std::map<std::pair<uint64_t, uint64_t>, int> by_range;
  unit_of_symbol.assign(symbols.size(), -1);
  for (size_t i = 0; i < symbols.size(); ++i) {
    const ElfSymbol& s = symbols[i];
    if ((s.type != STT_FUNC && s.type != STT_OBJECT) || s.size == 0 ||
        s.section == SHN_UNDEF || s.section >= sections.size() ||
        !Allocated(sections[s.section])) {
      continue;
    }
    auto [it, fresh] = by_range.emplace(std::pair{s.value, s.value + s.size},
                                        static_cast<int>(i));
    if (!fresh && (s.binding == STB_GLOBAL) >
                      (symbols[it->second].binding == STB_GLOBAL)) {
      it->second = static_cast<int>(i);
    }
  }
  for (const auto& [range, sym] : by_range) {
    const ElfSymbol& s = symbols[sym];
    units.push_back({range.first, range.second, s.name, s.section,
                     (sections[s.section].flags & SHF_EXECINSTR) != 0});
  }
  for (size_t i = 0; i < units.size(); ++i) {
    max_end.push_back(std::max(i ? max_end[i - 1] : 0, units[i].end));
    if (units[i].code) function_at[units[i].start] = static_cast<int>(i);
    units_named.emplace(units[i].name, static_cast<int>(i));
  }
  for (size_t i = 0; i < symbols.size(); ++i) {
    const ElfSymbol& s = symbols[i];
    if (s.type != STT_FUNC && s.type != STT_OBJECT) continue;
    auto it = std::lower_bound(
        units.begin(), units.end(), std::pair{s.value, s.value + s.size},
        [](const Unit& u, const std::pair<uint64_t, uint64_t>& r) {
          return std::pair{u.start, u.end} < r;
        });
    if (it != units.end() && it->start == s.value &&
        it->end == s.value + s.size) {
      unit_of_symbol[i] = static_cast<int>(it - units.begin());
    }
  }
  // The relocations the link kept (--emit-relocs): RELA sections that use
  // the static symbol table and apply to an allocated section.
  bool code_relocations = false;
  for (const ElfSection& rela : sections) {
    if (rela.type != SHT_RELA || static_cast<int>(rela.link) != symtab ||
        rela.info == 0 || rela.info >= sections.size() ||
        !Allocated(sections[rela.info])) {
      continue;
    }
    if (sections[rela.info].flags & SHF_EXECINSTR) code_relocations = true;
    auto entries = image->Relocations(rela);
    if (!entries.ok()) return entries.status();
    for (const ElfRelocation& e : *entries) {
      Field field;
      if (!FieldOf(e.type, &field)) {
        return Status::FailedPrecondition("the worker has relocation type " +
                                          std::to_string(e.type) +
                                          ", which this reader does not know");
      }
      if (e.symbol >= symbols.size()) {
        return Status::InvalidArgument("a relocation names no symbol");
      }
      relocations.push_back({e.offset, e.type, e.symbol, e.addend, field});
    }
  }
  if (!code_relocations) {
    return Status::FailedPrecondition(
        "the worker was linked without --emit-relocs (gsrt_add_application "
        "adds it)");
  }
  std::sort(
      relocations.begin(), relocations.end(),
      [](const Relocation& a, const Relocation& b) { return a.at < b.at; });
  std::set<uint64_t> cut_set;
  for (const ElfSection& s : sections) {
    if (Allocated(s)) cut_set.insert(s.address);
  }
  for (const Unit& u : units) {
    cut_set.insert(u.start);
    cut_set.insert(u.end);
  }
  for (const Relocation& r : relocations) {
    const ElfSymbol& s = symbols[r.symbol];
    if (s.section == SHN_UNDEF || s.type == STT_TLS) continue;
    uint64_t lo, hi;
    TargetRange(r, &lo, &hi);
    cut_set.insert(lo);
  }
  cuts.assign(cut_set.begin(), cut_set.end());
  return Status::Ok();
}

FunctionIdentities::FunctionIdentities(std::unique_ptr<Impl> impl)
    : impl_(std::move(impl)) {}
FunctionIdentities::~FunctionIdentities() = default;

StatusOr<std::unique_ptr<FunctionIdentities>> FunctionIdentities::Read(
    std::string image) {
  auto impl = std::make_unique<Impl>();
  impl->bytes = std::move(image);
  if (Status s = impl->Load(); !s.ok()) return s;
  return std::unique_ptr<FunctionIdentities>(
      new FunctionIdentities(std::move(impl)));
}

size_t FunctionIdentities::last_pieces() const { return impl_->last_pieces; }

namespace function_identity_internal {

// A piece to hash: a unit (>= 0) or anonymous data [start, end).
struct Piece {
  int unit;
  uint64_t start, end;
  bool operator<(const Piece& o) const {
    return std::tie(start, end, unit) < std::tie(o.start, o.end, o.unit);
  }
};

// The pieces one function reaches, found and hashed as they are met.
class Closure {
 public:
  explicit Closure(const FunctionIdentities::Impl& m) : m_(m) {}

  // The function, its trampoline and the static initializers; false when
  // the worker has no function of that name.
  bool AddRoots(std::string_view function) {
    bool found = false;
    for (auto [it, end] = m_.units_named.equal_range(std::string(function));
         it != end; ++it) {
      if (m_.units[it->second].code) {
        VisitUnit(it->second);
        found = true;
      }
    }
    for (auto [it, end] =
             m_.units_named.equal_range("tramp_" + std::string(function));
         it != end; ++it) {
      VisitUnit(it->second);
    }
    for (const ElfSection& s : m_.sections) {
      if (s.name == ".init_array" || s.name == ".preinit_array")
        Visit({-1, s.address, s.address + s.size});
    }
    return found;
  }

  // "name digest" of every piece reached, sorted.
  std::vector<std::string> HashAll() {
    std::vector<std::string> lines;
    while (!work_.empty()) {
      const Piece p = work_.back();
      work_.pop_back();
      const int section =
          p.unit >= 0 ? m_.units[p.unit].section : m_.SectionAt(p.start);
      if (section >= 0) lines.push_back(Hash(p, section));
    }
    std::sort(lines.begin(), lines.end());
    return lines;
  }

 private:
  void Visit(const Piece& p) {
    if (seen_.insert(p).second) work_.push_back(p);
  }
  void VisitUnit(int u) { Visit({u, m_.units[u].start, m_.units[u].end}); }

  // The piece's bytes with what relocations fill in left out, and what
  // they refer to.
  std::string Hash(const Piece& p, int section) {
    std::string bytes(m_.BytesOf(section, p.start, p.end));
    std::vector<bool> filled(bytes.size(), false);
    std::string refs;
    auto first = std::lower_bound(
        m_.relocations.begin(), m_.relocations.end(), p.start,
        [](const Relocation& r, uint64_t a) { return r.at < a; });
    for (auto r = first; r != m_.relocations.end() && r->at < p.end; ++r) {
      const uint64_t at = r->at - p.start;
      for (int b = 0; b < r->field.size && at + b < bytes.size(); ++b) {
        bytes[at + b] = 0;
        filled[at + b] = true;
      }
      refs += "@" + std::to_string(at) + ":" + std::to_string(r->type) + ":";
      Describe(*r, &refs);
    }
    if (p.unit >= 0 && m_.units[p.unit].code)
      ScanResolvedCalls(p, &bytes, filled, &refs);
    Sha256 piece;
    piece.Update(bytes);
    piece.Update(std::to_string(p.end - p.start));
    piece.Update(refs);
    return (p.unit >= 0 ? m_.units[p.unit].name : std::string("-")) + " " +
           piece.Hex();
  }

  // What relocation `r` names, by name and offset, never by address;
  // what it reaches is visited.
  void Describe(const Relocation& r, std::string* refs) {
    const ElfSymbol& s = m_.symbols[r.symbol];
    if (s.section == SHN_UNDEF || s.type == STT_TLS) {
      *refs += "U" + s.name + "+" + std::to_string(r.addend);
      return;
    }
    if (s.type != STT_SECTION && m_.unit_of_symbol[r.symbol] >= 0) {
      *refs += "N" + s.name + "+" + std::to_string(r.addend);
      VisitUnit(m_.unit_of_symbol[r.symbol]);
      return;
    }
    uint64_t lo, hi;
    m_.TargetRange(r, &lo, &hi);
    const std::vector<int> over = m_.UnitsOver(lo, hi);
    for (int u : over) {
      *refs += "A" + m_.units[u].name + "+" +
               std::to_string(static_cast<int64_t>(lo - m_.units[u].start));
      VisitUnit(u);
    }
    for (uint64_t a : {lo, hi}) {
      uint64_t start, end;
      if (m_.PieceAt(a, &start, &end)) {
        *refs += "P+" + std::to_string(a - start);
        Visit({-1, start, end});
      }
    }
    if (over.empty()) *refs += "X";
  }

  // Calls and jumps the assembler resolved (to a function of the same
  // section) have no relocation: a 4-byte word that, read as an offset
  // from its end, lands on a function's first byte is taken as one.
  void ScanResolvedCalls(const Piece& p, std::string* bytes,
                         const std::vector<bool>& filled, std::string* refs) {
    for (size_t i = 0; i + 4 <= bytes->size(); ++i) {
      if (filled[i] || filled[i + 1] || filled[i + 2] || filled[i + 3])
        continue;
      int32_t offset;
      std::memcpy(&offset, bytes->data() + i, 4);
      const uint64_t target = p.start + i + 4 + offset;
      auto f = m_.function_at.find(target);
      if (f == m_.function_at.end() || target == p.start) continue;
      std::memset(bytes->data() + i, 0, 4);
      *refs += "@" + std::to_string(i) + ":C" + m_.units[f->second].name;
      VisitUnit(f->second);
      i += 3;
    }
  }

  const FunctionIdentities::Impl& m_;
  std::set<Piece> seen_;
  std::vector<Piece> work_;
};

}  // namespace function_identity_internal

StatusOr<std::string> FunctionIdentities::Of(std::string_view function) {
  function_identity_internal::Closure closure(*impl_);
  if (!closure.AddRoots(function)) {
    return Status::NotFound("the worker defines no function " +
                            std::string(function));
  }
  const std::vector<std::string> lines = closure.HashAll();
  Sha256 all;
  for (const std::string& line : lines) all.Update(line + "\n");
  impl_->last_pieces = lines.size();
  return "f:" + all.Hex().substr(0, 32);
}

}  // namespace gs
