#include "sim/instances/etc_matrix.h"

#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>

namespace gs {
namespace {

// Walks whitespace-separated tokens, remembering the line of each.
class Tokens {
 public:
  explicit Tokens(std::string_view text) : text_(text) {}

  // Next token, or empty at end of text; sets line() to its line.
  std::string_view Next() {
    while (pos_ < text_.size() && IsSpace(text_[pos_])) {
      if (text_[pos_] == '\n') ++line_;
      ++pos_;
    }
    size_t start = pos_;
    while (pos_ < text_.size() && !IsSpace(text_[pos_])) ++pos_;
    return text_.substr(start, pos_ - start);
  }
  int line() const { return line_; }

 private:
  static bool IsSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
           c == '\f';
  }
  std::string_view text_;
  size_t pos_ = 0;
  int line_ = 1;
};

Status Error(std::string_view name, int line, const std::string& what) {
  return Status::InvalidArgument(std::string(name) + ":" +
                                 std::to_string(line) + ": " + what);
}

bool ParseCount(std::string_view tok, size_t* out) {
  auto [end, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), *out);
  return ec == std::errc() && end == tok.data() + tok.size();
}

}  // namespace

StatusOr<EtcMatrix> ParseEtc(std::string_view text, std::string_view name) {
  // The header must be alone on line 1: a missing field would otherwise
  // silently take the first execution time as the machine count.
  size_t eol = text.find('\n');
  std::string_view first = text.substr(0, eol);
  Tokens header(first);
  std::string_view fields[4];
  for (auto& f : fields) f = header.Next();
  size_t unused = 0;
  EtcMatrix m;
  if (fields[2].empty() || !fields[3].empty() ||
      !ParseCount(fields[0], &m.tasks) || !ParseCount(fields[1], &m.machines) ||
      !ParseCount(fields[2], &unused)) {
    return Error(name, 1,
                 "expected the header `TASKS MACHINES 0` (three non-negative "
                 "integers), found '" +
                     std::string(first) + "'");
  }
  if (m.tasks == 0 || m.machines == 0) {
    return Error(name, 1, "the header declares no tasks or no machines");
  }
  if (m.tasks > text.size() / m.machines) {
    // Each value takes at least two characters (digit and separator): a
    // header this large is a typo, and reserving for it could exhaust memory.
    return Error(name, 1,
                 "the header declares " + std::to_string(m.tasks) + " x " +
                     std::to_string(m.machines) +
                     " values, more than the file can hold");
  }
  const size_t total = m.tasks * m.machines;
  m.values.reserve(total);
  Tokens body(eol == std::string_view::npos ? std::string_view()
                                            : text.substr(eol + 1));
  int line = 1;  // of the last token read; body line 1 is file line 2
  for (std::string_view tok = body.Next(); !tok.empty(); tok = body.Next()) {
    line = body.line() + 1;
    if (m.values.size() == total) {
      return Error(name, line,
                   "unexpected '" + std::string(tok) + "' after the " +
                       std::to_string(total) + " values the header declares");
    }
    double v = 0;
    auto [end, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), v);
    if (ec != std::errc() || end != tok.data() + tok.size()) {
      return Error(name, line,
                   "expected a number (value " +
                       std::to_string(m.values.size() + 1) + "), found '" +
                       std::string(tok) + "'");
    }
    if (!std::isfinite(v) || v < 0) {
      return Error(name, line,
                   "execution time '" + std::string(tok) +
                       "' is negative or not finite");
    }
    m.values.push_back(v);
  }
  if (m.values.size() != total) {
    return Error(name, line,
                 "the file ends after " + std::to_string(m.values.size()) +
                     " of the " + std::to_string(total) +
                     " values the header declares (" + std::to_string(m.tasks) +
                     " tasks x " + std::to_string(m.machines) + " machines)");
  }
  return m;
}

StatusOr<EtcMatrix> LoadEtcFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return Status::NotFound("cannot open ETC file '" + path +
                            "' (check the path)");
  }
  std::ostringstream buf;
  buf << in.rdbuf();
  if (in.bad()) return Status::IoError("cannot read ETC file '" + path + "'");
  return ParseEtc(buf.str(), path);
}

}  // namespace gs
