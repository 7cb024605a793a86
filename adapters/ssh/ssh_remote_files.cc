// Remote directories, hashes, uploads and program installation, built on
// RunCommand. Compound steps run as `sh -c SCRIPT sh ARGS...`: the script
// is fixed text and the paths arrive as positional parameters, so no path
// is ever spliced into shell code, and the login shell may be any shell.
#include <algorithm>
#include <cctype>
#include <fstream>
#include <random>
#include <sstream>
#include <vector>

#include "adapters/ssh/ssh_remote.h"
#include "runtime/base/sha256.h"

namespace gs {
namespace {

constexpr size_t kUploadChunk = 256 * 1024;

std::string Trim(std::string s) {
  auto space = [](unsigned char c) { return std::isspace(c) != 0; };
  s.erase(s.begin(), std::find_if_not(s.begin(), s.end(), space));
  s.erase(std::find_if_not(s.rbegin(), s.rend(), space).base(), s.end());
  return s;
}

bool IsHex64(const std::string& s) {
  return s.size() == 64 && std::all_of(s.begin(), s.end(), [](unsigned char c) {
           return std::isdigit(c) || (c >= 'a' && c <= 'f');
         });
}

// A path the shell runs as a file, not looked up in $PATH.
std::string ExecPath(const std::string& path) {
  std::string p = RemotePath(path);
  return p.find('/') == std::string::npos ? "./" + p : p;
}

std::string Basename(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string RandomSuffix() {
  std::random_device rd;
  std::ostringstream out;
  out << std::hex << rd() << rd();
  return out.str();
}

std::string Mode(int mode) {
  std::ostringstream out;
  out << std::oct << mode;
  return out.str();
}

Status CommandFailed(const SshSession& session, const std::string& what,
                     const CommandResult& r) {
  std::string msg = what + " on " + session.describe() + " failed (";
  msg += r.signal.empty() ? "exit status " + std::to_string(r.exit_code)
                          : "signal " + r.signal;
  msg += ")";
  const std::string err = Trim(r.err);
  if (!err.empty()) msg += ": " + err;
  return Status::IoError(msg);
}

}  // namespace

std::string RemotePath(const std::string& path) {
  if (path == "~") return ".";
  if (path.rfind("~/", 0) == 0) {
    std::string rest = path.substr(2);
    return rest.empty() ? "." : rest;
  }
  return path;
}

Status EnsureRemoteDir(SshSession& session, const std::string& path,
                       Seconds timeout) {
  const std::string dir = RemotePath(path);
  RunOptions opt;
  opt.timeout = timeout;
  auto r = RunCommand(session,
                      {"sh", "-c",
                       "mkdir -p -m 0700 -- \"$1\" && test -d \"$1\" && "
                       "test -w \"$1\"",
                       "sh", dir},
                      opt);
  if (!r.ok()) return r.status();
  if (r->exit_code != 0) {
    return CommandFailed(session, "creating the directory " + dir, *r);
  }
  return Status::Ok();
}

StatusOr<std::string> RemoteSha256(SshSession& session, const std::string& path,
                                   Seconds timeout) {
  const std::string file = RemotePath(path);
  RunOptions opt;
  opt.timeout = timeout;
  auto r = RunCommand(
      session,
      {"sh", "-c",
       "if [ -e \"$1\" ]; then sha256sum < \"$1\" || shasum -a 256 < \"$1\"; "
       "else echo missing; fi",
       "sh", file},
      opt);
  if (!r.ok()) return r.status();
  std::istringstream out(r->out);
  std::string first;
  out >> first;
  if (r->exit_code == 0 && first == "missing") return std::string();
  if (r->exit_code != 0 || !IsHex64(first)) {
    return CommandFailed(
        session, "hashing " + file + " (needs sha256sum or shasum)", *r);
  }
  return first;
}

StatusOr<UploadResult> UploadFile(SshSession& session, const std::string& local,
                                  const std::string& remote, int mode,
                                  Seconds timeout) {
  const std::string dest = RemotePath(remote);
  auto in = std::make_shared<std::ifstream>(local, std::ios::binary);
  if (!*in) return Status::FromErrno("open " + local + " to upload it", errno);
  auto hash = std::make_shared<Sha256>();
  auto sent = std::make_shared<uint64_t>(0);
  RunOptions opt;
  opt.timeout = timeout;
  opt.stdin_source = [in, hash, sent, local]() -> StatusOr<std::string> {
    std::string chunk(kUploadChunk, '\0');
    in->read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    if (in->bad()) return Status::IoError("read " + local + " failed");
    chunk.resize(static_cast<size_t>(in->gcount()));
    hash->Update(chunk);
    *sent += chunk.size();
    return chunk;
  };
  const std::string tmp = dest + ".gsrt-upload-" + RandomSuffix();
  auto r = RunCommand(
      session,
      {"sh", "-c",
       "umask 077 && mkdir -p -- \"$(dirname -- \"$1\")\" && cat > \"$2\" && "
       "chmod \"$3\" \"$2\" && mv -f -- \"$2\" \"$1\" && wc -c < \"$1\" && "
       "{ sha256sum < \"$1\" || shasum -a 256 < \"$1\"; } || "
       "{ rm -f -- \"$2\"; exit 1; }",
       "sh", dest, tmp, Mode(mode)},
      opt);
  if (!r.ok()) return r.status().WithContext("uploading " + local);
  if (r->exit_code != 0) {
    return CommandFailed(session, "uploading " + local + " to " + dest, *r);
  }
  UploadResult up{*sent, hash->Hex()};
  std::istringstream out(r->out);
  uint64_t size = 0;
  std::string digest;
  out >> size >> digest;
  if (size != up.bytes || digest != up.sha256) {
    return Status::IoError(
        "the upload of " + local + " to " + dest + " on " + session.describe() +
        " arrived damaged: " + std::to_string(size) + " bytes with SHA-256 " +
        (digest.empty() ? "?" : digest) + ", but " + std::to_string(up.bytes) +
        " bytes with SHA-256 " + up.sha256 + " were sent");
  }
  return up;
}

StatusOr<InstallResult> InstallIfDifferent(SshSession& session,
                                           const std::string& local,
                                           const std::string& remote,
                                           Seconds timeout) {
  const std::string dest = RemotePath(remote);
  const std::string name = Basename(dest);
  Sha256 local_hash;
  if (Status s = HashFile(local, &local_hash); !s.ok()) {
    return s.WithContext("installing " + name);
  }
  const std::string mine = local_hash.Hex();
  // `timeout` is the upload's; the other steps are quick, and a host that
  // hangs must not hold a reconnect (on the engine thread) for minutes.
  const Seconds step_timeout = std::min<Seconds>(timeout, 30);
  StatusOr<std::string> theirs = RemoteSha256(session, dest, step_timeout);
  if (!theirs.ok()) return theirs.status();
  InstallResult result;
  RunOptions opt;
  opt.timeout = step_timeout;
  if (*theirs != mine) {
    auto up = UploadFile(session, local, dest, 0755, timeout);
    if (!up.ok()) return up.status();
    result.uploaded = true;
  } else {
    auto r = RunCommand(session, {"chmod", "0755", "--", dest}, opt);
    if (!r.ok()) return r.status();
    if (r->exit_code != 0) {
      return CommandFailed(session, "chmod 0755 " + dest, *r);
    }
  }
  auto r = RunCommand(session, {ExecPath(dest), "--version"}, opt);
  if (!r.ok()) return r.status();
  if (r->exit_code != 0) {
    std::string msg =
        name + " on " + session.describe() + " does not start: `" +
        ExecPath(dest) + " --version` ended with " +
        (r->signal.empty() ? "exit status " + std::to_string(r->exit_code)
                           : "signal " + r->signal);
    const std::string err = Trim(r->err);
    if (!err.empty()) msg += ": " + err;
    RunOptions quick;
    quick.timeout = 10;
    auto uname = RunCommand(session, {"uname", "-sm"}, quick);
    if (uname.ok() && uname->exit_code == 0) {
      msg += " (the host runs " + Trim(uname->out) + ")";
    }
    msg += ". Wrong architecture? Missing shared library (run ldd " +
           ExecPath(dest) + " there)?";
    return Status::FailedPrecondition(msg);
  }
  result.version = Trim(r->out);
  return result;
}

}  // namespace gs
