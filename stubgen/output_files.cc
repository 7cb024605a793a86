#include "stubgen/output_files.h"

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <system_error>
#include <utility>

#include "runtime/base/file_io.h"

namespace gs {

namespace {

bool IsNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '+';
}

}  // namespace

StatusOr<EmitNames> OutputNames(std::string_view idl_path) {
  std::string file = std::filesystem::path(idl_path).filename().string();
  std::string base = file.substr(0, file.find('.'));
  if (base.empty()) {
    return Status::InvalidArgument("cannot name the outputs after '" +
                                   std::string(idl_path) +
                                   "': rename it to NAME.idl");
  }
  for (char c : base) {
    if (!IsNameChar(c)) {
      return Status::InvalidArgument(
          "cannot name the outputs after '" + std::string(idl_path) +
          "': use only letters, digits, '_', '-' and '+' before the "
          "extension");
    }
  }
  return EmitNames{base, file};
}

StatusOr<std::string> ReadTextFile(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return Status::FromErrno("cannot read " + path, errno);
  std::string text;
  char buf[8192];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, n);
  int err = std::ferror(f) ? errno : 0;
  std::fclose(f);
  if (err != 0) return Status::FromErrno("cannot read " + path, err);
  return text;
}

Status WriteFilesAtomically(const std::string& dir,
                            const std::vector<GeneratedFile>& files) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    return Status::IoError("cannot create output directory " + dir + ": " +
                           ec.message());
  }
  // Every file is written before any is renamed; on an error the pending
  // ones go away with the vector. No fsync: a build regenerates them.
  std::vector<PendingFile> pending;
  for (const GeneratedFile& file : files) {
    StatusOr<PendingFile> f = PendingFile::Create(
        (fs::path(dir) / file.name).string(), {.mode = 0666, .sync = false});
    if (!f.ok()) return f.status();
    if (Status s = f->Append(file.content); !s.ok()) return s;
    pending.push_back(std::move(f).value());
  }
  for (PendingFile& f : pending) {
    if (Status s = f.Commit(); !s.ok()) return s;
  }
  return Status::Ok();
}

}  // namespace gs
