// Host key decisions and the messages that explain a refusal. Pure logic:
// the session (ssh_connect.cc) gathers the facts, this file decides and
// words the error, so every case is unit-tested without a server.
#ifndef GSRT_ADAPTERS_SSH_KNOWN_HOSTS_H_
#define GSRT_ADAPTERS_SSH_KNOWN_HOSTS_H_

#include <string>
#include <string_view>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/jobs/host_config.h"

typedef struct ssh_key_struct* ssh_key;

namespace gs {

// The name under which OpenSSH and libssh record a host in known_hosts:
// "ADDR" for port 22, "[ADDR]:PORT" otherwise.
std::string KnownHostsName(std::string_view address, int port);

// One line of a known_hosts file that names a host.
struct KnownHostsLine {
  int line = 0;          // counting from 1
  std::string key_type;  // "ssh-ed25519", ... ("" if the key is unreadable)
};

// The lines of known_hosts `text` whose host patterns match `name` (plain,
// comma lists, wildcards and hashed "|1|" entries alike). Comments, blank
// lines and @-marker lines are skipped.
std::vector<KnownHostsLine> FindKnownHostsLines(std::string_view text,
                                                std::string_view name);

// What the known_hosts file says about the key the server offered.
enum class HostKeyState {
  kKnown,      // recorded with this very key
  kUnknown,    // the host is not in the file
  kNoFile,     // the file does not exist
  kChanged,    // recorded with another key of the same type
  kOtherType,  // recorded only with keys of other types
  kError,      // the file could not be read
};

// What `text` (a known_hosts file) says about `offered` for host `name`;
// fills `lines` with the file's lines for that host. Never kNoFile/kError:
// reading the file is the caller's part.
HostKeyState ClassifyHostKey(std::string_view text, std::string_view name,
                             ssh_key offered,
                             std::vector<KnownHostsLine>* lines);

enum class HostKeyAction { kAccept, kRecord, kRefuse };

// strict accepts only kKnown; accept-new also records kUnknown/kNoFile.
// A changed key (or one of another type) is refused in both modes.
HostKeyAction DecideHostKey(HostKeyState state, HostKeyCheck check);

// Everything a refusal message names.
struct HostKeyFacts {
  std::string host;     // "host node1 (127.0.0.2:2222)"
  std::string address;  // 127.0.0.2
  int port = 22;
  std::string key_type;               // the offered key: "ssh-ed25519"
  std::string fingerprint;            // "SHA256:..."
  std::string known_hosts;            // the file checked
  std::vector<KnownHostsLine> lines;  // the file's lines for this host
  std::string detail;                 // libssh's words, for kError
};

// The PermissionDenied status for a refused key: names the host,
// address:port, key type and fingerprint, and says what to do.
Status HostKeyRefusal(HostKeyState state, HostKeyCheck check,
                      const HostKeyFacts& facts);

}  // namespace gs

#endif  // GSRT_ADAPTERS_SSH_KNOWN_HOSTS_H_
