#include "runtime/observe/trace_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

namespace gs {

namespace {

constexpr char kHead[] = "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n";
constexpr char kTail[] = "\n]}\n";

Status WriteAt(int fd, const std::string& path, const std::string& data,
               off_t at) {
  size_t done = 0;
  while (done < data.size()) {
    ssize_t n = pwrite(fd, data.data() + done, data.size() - done,
                       at + static_cast<off_t>(done));
    if (n < 0) {
      if (errno == EINTR) continue;
      return Status::FromErrno("writing the trace " + path, errno);
    }
    done += static_cast<size_t>(n);
  }
  return Status::Ok();
}

}  // namespace

StatusOr<std::unique_ptr<TraceFile>> TraceFile::Create(
    const std::string& path) {
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) {
    return Status::FromErrno(
        "cannot create the trace file " + path +
            " (GSRT_TRACE or runtime.trace); check the directory exists and "
            "is writable",
        errno);
  }
  std::unique_ptr<TraceFile> file(new TraceFile(path, fd));
  const std::string head = kHead;
  if (Status s = WriteAt(fd, path, head + kTail, 0); !s.ok()) return s;
  file->end_ = static_cast<off_t>(head.size());
  return file;
}

TraceFile::~TraceFile() {
  (void)Flush();
  if (fd_ >= 0) close(fd_);
}

void TraceFile::Append(const std::string& event_json) {
  if (!first_) buffer_ += ",\n";
  first_ = false;
  buffer_ += event_json;
}

Status TraceFile::Flush() {
  if (buffer_.empty()) return Status::Ok();
  // The new events overwrite the old closing brackets; the new closing
  // brackets follow them. The file only grows, so nothing stale is left.
  std::string data = std::move(buffer_);
  buffer_.clear();
  const off_t at = end_;
  end_ += static_cast<off_t>(data.size());
  data += kTail;
  return WriteAt(fd_, path_, data, at);
}

}  // namespace gs
