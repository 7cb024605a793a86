#include "stubgen/output_files.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <system_error>

namespace gs {

namespace {

bool IsNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '+';
}

Status WriteAll(const std::string& path, const std::string& content) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) return Status::FromErrno("cannot create " + path, errno);
  size_t done = 0;
  while (done < content.size()) {
    ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int err = errno;
      ::close(fd);
      return Status::FromErrno("cannot write " + path, err);
    }
    done += static_cast<size_t>(n);
  }
  if (::close(fd) != 0) {
    return Status::FromErrno("cannot write " + path, errno);
  }
  return Status::Ok();
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
  std::vector<std::string> temps;
  auto remove_temps = [&temps] {
    for (const std::string& t : temps) ::unlink(t.c_str());
  };
  std::string suffix = ".tmp." + std::to_string(::getpid());
  for (const GeneratedFile& file : files) {
    std::string temp = (fs::path(dir) / ("." + file.name + suffix)).string();
    temps.push_back(temp);
    Status s = WriteAll(temp, file.content);
    if (!s.ok()) {
      remove_temps();
      return s;
    }
  }
  for (size_t i = 0; i < files.size(); ++i) {
    std::string final_path = (fs::path(dir) / files[i].name).string();
    if (std::rename(temps[i].c_str(), final_path.c_str()) != 0) {
      int err = errno;
      remove_temps();
      return Status::FromErrno("cannot write " + final_path, err);
    }
  }
  return Status::Ok();
}

}  // namespace gs
